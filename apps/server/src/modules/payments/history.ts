import type { PaymentHistoryItem } from '@portal/contracts/wallet';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';
import { invalidInput } from '../../http/app-error.js';
import { TOP_UP_BY_CARD, TOP_UP_BY_SBP } from './messages.js';
import { CANCELED_STATUSES, FAILED_STATUSES } from './statuses.js';

export interface HistoryQuery {
  userId: string;
  limit: number;
  cursor?: string | undefined;
  direction?: 'accrual' | 'writeOff' | undefined;
  currency?: 'rub' | 'points' | undefined;
}

interface HistoryRow {
  id: string;
  kind: PaymentHistoryItem['kind'];
  currency: 'rub' | 'points';
  amount: string;
  description: string;
  status: PaymentHistoryItem['status'];
  created_at: string | Date;
  /** created_at as text with microseconds: the cursor must not lose precision. */
  created_key: string;
}

const CURSOR_INVALID = 'Некорректный курсор страницы';

function encodeCursor(row: HistoryRow): string {
  return Buffer.from(JSON.stringify([row.created_key, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      value[1].length <= 40
    ) {
      return [value[0], value[1]];
    }
  } catch {}
  throw invalidInput(CURSOR_INVALID, { cursor: [CURSOR_INVALID] });
}

const quoted = (values: Iterable<string>) =>
  sql.join(
    [...values].map((value) => sql`${value}`),
    sql`, `,
  );

/**
 * The caller's history, newest first: every ledger entry (completed), plus top-ups that have not
 * credited anything (pending, failed, canceled) so a customer sees a payment they just made.
 * Keyset paging over (created_at, id): stable while new entries arrive.
 */
export async function listHistory(db: Db, query: HistoryQuery) {
  const filters: SQL[] = [];
  if (query.direction === 'accrual') filters.push(sql`h.signed_amount > 0`);
  if (query.direction === 'writeOff') filters.push(sql`h.signed_amount < 0`);
  if (query.currency) filters.push(sql`h.currency = ${query.currency}`);
  if (query.cursor) {
    const [createdKey, id] = decodeCursor(query.cursor);
    filters.push(sql`(h.created_at, h.id) < (${createdKey}::timestamptz, ${id})`);
  }
  const where = filters.length > 0 ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``;

  const result = await db.execute(sql`
    SELECT h.id, h.kind, h.currency, h.signed_amount::text AS amount, h.description,
           h.status, h.created_at,
           to_char(h.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
    FROM (
      SELECT e.id::text AS id, e.kind, e.currency, e.amount AS signed_amount, e.description,
             'completed' AS status, e.created_at
      FROM ledger_entries e
      WHERE e.user_id = ${query.userId}
      UNION ALL
      SELECT p.id::text, 'topUp', 'rub', p.amount_kopecks,
             CASE p.method WHEN 'sbp' THEN ${TOP_UP_BY_SBP} ELSE ${TOP_UP_BY_CARD} END,
             CASE
               WHEN p.status IN (${quoted(FAILED_STATUSES)}) THEN 'failed'
               WHEN p.status IN (${quoted(CANCELED_STATUSES)}) THEN 'canceled'
               ELSE 'pending'
             END,
             p.created_at
      FROM payments p
      WHERE p.user_id = ${query.userId} AND p.credited_at IS NULL AND p.status <> 'INIT_FAILED'
    ) h
    ${where}
    ORDER BY h.created_at DESC, h.id DESC
    LIMIT ${query.limit + 1}
  `);
  const rows = (result as unknown as { rows: HistoryRow[] }).rows;
  const page = rows.slice(0, query.limit);
  const data: PaymentHistoryItem[] = page.map((row) => {
    const signed = Number(row.amount);
    const amount = Math.abs(signed);
    return {
      id: row.id,
      kind: row.kind,
      direction: signed < 0 ? 'writeOff' : 'accrual',
      currency: row.currency,
      amount: row.currency === 'rub' ? amount / 100 : amount,
      description: row.description,
      status: row.status,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
  const last = page.at(-1);
  return { data, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
}
