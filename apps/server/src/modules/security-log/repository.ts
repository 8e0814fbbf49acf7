import type {
  SecurityEvent,
  SecurityEventDetails,
  SecurityEventKind,
} from '@portal/contracts/security-log';
import { and, asc, eq, gte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { statementForAnyExecutor } from '../../db/prepared.js';
import { decodePageCursor, encodePageCursor } from '../../http/page-cursor.js';
import { securityEvents } from './schema.js';

/** Every query of `security_events`; each takes the executor, so a write joins the caller's transaction. */

export interface NewSecurityEvent {
  userId: string;
  kind: SecurityEventKind;
  occurredAt: Date;
  userAgent: string;
  ipAddress: string;
  details: SecurityEventDetails;
}

/**
 * Answers the new event's id. Built once and prepared (db/prepared.ts): every sign-in records an
 * event, in its transaction.
 */
export async function insertSecurityEvent(
  executor: Executor,
  event: NewSecurityEvent,
): Promise<string> {
  const [row] = await insertEvent(executor, { ...event, details: JSON.stringify(event.details) });
  return row!.id;
}

const placeholder = <T>(name: string) => sql.placeholder(name) as unknown as T;
const insertEvent = statementForAnyExecutor<{ id: string }>('security_events_insert', (db) =>
  db
    .insert(securityEvents)
    .values({
      userId: placeholder('userId'),
      kind: placeholder('kind'),
      occurredAt: placeholder('occurredAt'),
      userAgent: placeholder('userAgent'),
      ipAddress: placeholder('ipAddress'),
      details: sql`${sql.placeholder('details')}::jsonb` as never,
    })
    .returning({ id: securityEvents.id }),
);

/**
 * The sign-in event recorded with a session: the account's first `sign_in` from that user agent
 * at or after the session's creation (both are written in one transaction, the session first).
 */
export async function findSignInEventOf(
  executor: Executor,
  session: { userId: string; userAgent: string; createdAt: Date },
): Promise<string | undefined> {
  const [row] = await executor
    .select({ id: securityEvents.id })
    .from(securityEvents)
    .where(
      and(
        eq(securityEvents.userId, session.userId),
        eq(securityEvents.kind, 'sign_in'),
        eq(securityEvents.userAgent, session.userAgent.slice(0, 512)),
        gte(securityEvents.occurredAt, session.createdAt),
      ),
    )
    .orderBy(asc(securityEvents.occurredAt), asc(securityEvents.seq))
    .limit(1);
  return row?.id;
}

/**
 * Counts one more event of the day in the day's single row: one statement, so parallel failures
 * each add exactly one (a read followed by a write would lose some). The row keeps the latest
 * failure's time, browser and address.
 */
export async function countDailySecurityEvent(executor: Executor, event: NewSecurityEvent) {
  const day = event.occurredAt.toISOString().slice(0, 10);
  await executor
    .insert(securityEvents)
    .values({ ...event, day, count: 1 })
    .onConflictDoUpdate({
      target: [securityEvents.userId, securityEvents.kind, securityEvents.day],
      targetWhere: sql`day IS NOT NULL`,
      set: {
        count: sql`${securityEvents.count} + 1`,
        occurredAt: sql`GREATEST(${securityEvents.occurredAt}, excluded.occurred_at)`,
        userAgent: sql`excluded.user_agent`,
        ipAddress: sql`excluded.ip_address`,
      },
    });
}

/** Whether the account has signed in from this user agent before (the log's memory: a year). */
export async function hasSignedInWith(executor: Executor, userId: string, userAgent: string) {
  const [row] = await executor
    .select({ id: securityEvents.id })
    .from(securityEvents)
    .where(
      and(
        eq(securityEvents.userId, userId),
        eq(securityEvents.kind, 'sign_in'),
        eq(securityEvents.userAgent, userAgent),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Whether the account has any sign-in in the log (its first one is not "a new device"). */
export async function hasAnySignIn(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ id: securityEvents.id })
    .from(securityEvents)
    .where(and(eq(securityEvents.userId, userId), eq(securityEvents.kind, 'sign_in')))
    .limit(1);
  return row !== undefined;
}

const SEQ = /^\d{1,18}$/;
const OCCURRED_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** What the cursor carries, a real instant: anything else would reach the database and fail there. */
function isOccurredKey(value: string): boolean {
  if (!OCCURRED_KEY.test(value)) return false;
  const date = new Date(value);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 23) === value.slice(0, 23);
}

interface EventRow {
  id: string;
  kind: SecurityEventKind;
  occurred_at: string | Date;
  user_agent: string;
  ip_address: string;
  details: SecurityEventDetails | string;
  count: number;
  /** occurred_at as text with microseconds: the cursor must not lose precision. */
  occurred_key: string;
  seq: string;
}

/**
 * The account's events, newest first. Keyset paging over (occurred_at, seq), as the wallet
 * history's over (created_at, id) (payments/history.ts): a page stays right while new events
 * arrive; `seq` orders the events of one instant as they were recorded.
 */
export async function listSecurityEvents(
  executor: Executor,
  query: { userId: string; limit: number; cursor?: string | undefined },
): Promise<{ data: SecurityEvent[]; nextCursor: string | null }> {
  const cursor = query.cursor
    ? decodePageCursor(query.cursor, isOccurredKey, (value) => SEQ.test(value))
    : undefined;
  const after = cursor
    ? sql` AND (occurred_at, seq) < (${cursor[0]}::timestamptz, ${cursor[1]}::bigint)`
    : sql``;
  const result = await executor.execute(sql`
    SELECT id::text AS id, seq::text AS seq, kind, occurred_at, user_agent, ip_address, details, count,
           to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_key
    FROM security_events
    WHERE user_id = ${query.userId}${after}
    ORDER BY occurred_at DESC, seq DESC
    LIMIT ${query.limit + 1}
  `);
  const rows = (result as unknown as { rows: EventRow[] }).rows;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      id: row.id,
      kind: row.kind,
      occurredAt: new Date(row.occurred_at).toISOString(),
      count: row.count,
      userAgent: row.user_agent,
      ipAddress: row.ip_address || null,
      details: typeof row.details === 'string' ? JSON.parse(row.details) : row.details,
    })),
    nextCursor:
      rows.length > query.limit && last ? encodePageCursor(last.occurred_key, last.seq) : null,
  };
}
