// The audit page: operator_actions of the command line and the pages, filtered, and as CSV that a
// spreadsheet reads back as it was written and never runs as a formula.

import { STAFF_PAGE_SIZE, type StaffAuditAnswer } from '@portal/contracts/staff';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import {
  createStaffMember,
  STAFF_API,
  type StaffMemberFixture,
} from '../../../test/support/staff.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { recordOperatorAction } from '../operator/index.js';
import { csvCell } from './audit-service.js';

let t: TestApp;
let admin: StaffMemberFixture;
let accountA: string;
let accountB: string;

const DAY = 24 * 60 * 60_000;
const tricky = 'запятая, "кавычки"\nи перевод строки';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(new Date('2026-03-01T12:00:00Z'));
  admin = await createStaffMember(t, 'admin');
  accountA = (await createUser(t)).id;
  accountB = (await createUser(t)).id;
  const rows = [
    { operator: 'olga', command: 'block', accountId: accountA, reason: tricky, day: 0 },
    {
      operator: 'pyotr',
      command: 'unblock',
      accountId: accountA,
      reason: '=HYPERLINK("x")',
      day: 1,
    },
    { operator: 'olga', command: 'unlock', accountId: accountB, reason: '+1', day: 2 },
    { operator: 'pyotr', command: 'block', accountId: accountB, reason: '@SUM(A1)', day: 3 },
    { operator: 'olga', command: 'letters resend', accountId: null, reason: '-2', day: 3 },
  ];
  for (const row of rows) {
    await recordOperatorAction(t.database.db, {
      operator: row.operator,
      command: row.command,
      accountId: row.accountId,
      reason: row.reason,
      details: { note: 'x' },
      at: new Date(Date.UTC(2026, 3, 10 + row.day, 10)),
    });
  }
});

async function audit(query: Record<string, string>) {
  const answer = await t.app.inject({
    method: 'GET',
    url: `${STAFF_API}/audit`,
    headers: admin.headers,
    query,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<StaffAuditAnswer>();
}

/** A CSV text read back as a spreadsheet does: quoted cells, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  return rows;
}

describe('the audit', () => {
  it('filters by member, account, kind and dates, newest first', async () => {
    const kinds = (answer: StaffAuditAnswer) => answer.items.map((row) => [row.actor, row.kind]);
    expect(kinds(await audit({ actor: 'olga' }))).toEqual([
      ['olga', 'letters resend'],
      ['olga', 'unlock'],
      ['olga', 'block'],
    ]);
    expect(kinds(await audit({ account: accountA }))).toEqual([
      ['pyotr', 'unblock'],
      ['olga', 'block'],
    ]);
    expect(kinds(await audit({ kind: 'block' }))).toEqual([
      ['pyotr', 'block'],
      ['olga', 'block'],
    ]);
    expect(kinds(await audit({ from: '2026-04-11', to: '2026-04-12' }))).toEqual([
      ['olga', 'unlock'],
      ['pyotr', 'unblock'],
    ]);
    expect(kinds(await audit({ actor: 'pyotr', from: '2026-04-12' }))).toEqual([
      ['pyotr', 'block'],
    ]);
  });

  it('pages by seq', async () => {
    for (let i = 0; i < STAFF_PAGE_SIZE; i++) {
      await recordOperatorAction(t.database.db, {
        operator: 'paging',
        command: 'unlock',
        accountId: null,
        at: new Date(Date.UTC(2030, 0, 1) + i * DAY),
      });
    }
    const first = await audit({ actor: 'paging' });
    expect(first.items).toHaveLength(STAFF_PAGE_SIZE);
    expect(first.hasMore).toBe(false);
    const one = await audit({ actor: 'paging', before: String(first.items[1]!.seq) });
    expect(one.items.map((row) => row.seq)).toEqual(first.items.slice(2).map((row) => row.seq));
  });

  it('exports the filtered rows as CSV: commas, quotes and line breaks survive, formulas do not run', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: `${STAFF_API}/audit.csv`,
      headers: admin.headers,
      query: { from: '2026-04-10', to: '2026-04-13' },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.body.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(answer.body.slice(1));
    expect(header).toEqual([
      'seq',
      'at',
      'actor',
      'role',
      'kind',
      'accountId',
      'reason',
      'ip',
      'details',
    ]);
    expect(rows.map((row) => row[6])).toEqual([
      "'-2",
      "'@SUM(A1)",
      "'+1",
      '\'=HYPERLINK("x")',
      tricky,
    ]);
    expect(rows[0]![8]).toBe('{"note":"x"}');
  });

  it('guards every cell that starts like a formula and quotes what needs it', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('-1,5')).toBe(`"'-1,5"`);
  });
});
