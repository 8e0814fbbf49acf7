import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/db/database.js';

/**
 * Columns that a refused request may change on purpose, left out of the checksum:
 * - a failed try is counted before the check (codes die after 5 wrong tries, logins
 *   slow down after 10 failures), so counters of tries and the login throttle move on errors;
 * - a session's last activity moves on every authenticated call, refused or not;
 * - the mail outbox's delivery bookkeeping is written by the sender in the background.
 * Whole tables, for the same first reason: the login throttle, and the security log, which counts
 * an account's failed sign-ins (modules/security-log).
 */
const VOLATILE_COLUMNS: Record<string, string[]> = {
  sessions: ['last_activity_at'],
  one_time_codes: ['attempts'],
  password_reset_logout_grants: ['attempts'],
  mail_outbox: ['status', 'attempts', 'next_attempt_at', 'locked_until', 'last_error', 'sent_at'],
};
const VOLATILE_TABLES = new Set(['login_throttles', 'security_events']);

export type TableChecksums = Record<string, string>;

/**
 * A checksum of every application table (rows and their values, minus the columns above), taken
 * in one statement so that before and after compare like with like.
 */
export async function createTableChecksum(db: Db): Promise<() => Promise<TableChecksums>> {
  const listed = await db.execute(sql`
    SELECT table_name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
    ORDER BY table_name
  `);
  const tables = (listed as unknown as { rows: { table_name: string }[] }).rows
    .map((row) => row.table_name)
    .filter((name) => !VOLATILE_TABLES.has(name));
  if (tables.length < 10) throw new Error(`expected the application's tables, found ${tables}`);

  const parts = tables.map((table) => {
    const dropped = (VOLATILE_COLUMNS[table] ?? []).map((column) => ` - '${column}'`).join('');
    return `SELECT '${table}' AS t, count(*)::text AS n,
      coalesce(md5(string_agg((to_jsonb(r)${dropped})::text, '|' ORDER BY (to_jsonb(r)${dropped})::text)), '') AS h
      FROM "${table}" r`;
  });
  const statement = sql.raw(parts.join('\nUNION ALL\n'));

  return async () => {
    const result = await db.execute(statement);
    const rows = (result as unknown as { rows: { t: string; n: string; h: string }[] }).rows;
    return Object.fromEntries(rows.map((row) => [row.t, `${row.n}:${row.h}`]));
  };
}

/** Tables whose checksum differs, for a readable failure. */
export function changedTables(before: TableChecksums, after: TableChecksums): string[] {
  return Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
}
