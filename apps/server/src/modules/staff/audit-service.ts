/**
 * The audit for admins: `operator_actions`, the command line's and the pages' rows alike, newest
 * first, filtered by member, account, kind and dates; a page at a time or every row as CSV.
 */
import {
  STAFF_PAGE_SIZE,
  type StaffAuditAnswer,
  type StaffAuditQuery,
  type StaffAuditRow,
} from '@portal/contracts/staff';
import type { Db } from '../../db/database.js';
import { type AuditFilter, listOperatorActions } from '../operator/index.js';
import { auditRowOf } from './account-service.js';

const DAY_MS = 24 * 60 * 60_000;
/** Excel and LibreOffice read a UTF-8 file as such only when it starts with the byte order mark. */
const BOM = '\uFEFF';
export const AUDIT_CSV_COLUMNS = [
  'seq',
  'at',
  'actor',
  'role',
  'kind',
  'accountId',
  'reason',
  'ip',
  'details',
] as const;

export interface StaffAuditDeps {
  db: Db;
}

export class StaffAuditService {
  constructor(private readonly deps: StaffAuditDeps) {}

  async page(query: StaffAuditQuery): Promise<StaffAuditAnswer> {
    const rows = await listOperatorActions(this.deps.db, filterOf(query), STAFF_PAGE_SIZE + 1);
    return {
      items: rows.slice(0, STAFF_PAGE_SIZE).map(auditRowOf),
      hasMore: rows.length > STAFF_PAGE_SIZE,
    };
  }

  /** Every row the filters select, as one CSV text (UTF-8 with BOM, `,` between cells, CRLF). */
  async csv(query: StaffAuditQuery): Promise<string> {
    const rows = await listOperatorActions(this.deps.db, filterOf(query), null);
    return (
      BOM +
      [AUDIT_CSV_COLUMNS.join(','), ...rows.map((row) => csvLine(auditRowOf(row)))]
        .map((line) => `${line}\r\n`)
        .join('')
    );
  }
}

/** `to` is a day: the rows of that whole day are in. */
function filterOf(query: StaffAuditQuery): AuditFilter {
  return {
    actor: query.actor?.trim() || undefined,
    accountId: query.account?.trim() || undefined,
    kind: query.kind?.trim() || undefined,
    from: query.from ? new Date(`${query.from}T00:00:00Z`) : undefined,
    to: query.to ? new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS) : undefined,
    beforeSeq: query.before,
  };
}

function csvLine(row: StaffAuditRow): string {
  return [
    String(row.seq),
    row.at,
    row.actor,
    row.role ?? '',
    row.kind,
    row.accountId ?? '',
    row.reason ?? '',
    row.ip ?? '',
    JSON.stringify(row.details),
  ]
    .map(csvCell)
    .join(',');
}

/**
 * One cell as a spreadsheet reads it back: quoted when it holds a comma, a semicolon, a quote or a
 * line break; a text that starts like a formula (`=`, `+`, `-`, `@`, tab, CR) gets a leading `'`,
 * so a reason a member typed is shown, never run.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[,;"\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
