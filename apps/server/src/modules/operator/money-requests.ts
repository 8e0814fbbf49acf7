/**
 * Every query of `money_requests` (schema.ts, migrations/0810_money_requests.sql): staff money
 * waiting for a second person. The rules are money-service.ts's; here a decision is one
 * conditional UPDATE, so of any number of parallel approvals and declines exactly one wins.
 */
import { and, asc, desc, eq, gt, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { type MoneyRequestRow, moneyRequests } from './schema.js';

export type NewMoneyRequest = Pick<
  MoneyRequestRow,
  | 'kind'
  | 'accountId'
  | 'paymentId'
  | 'currency'
  | 'amount'
  | 'reason'
  | 'idempotencyKey'
  | 'requestedBy'
  | 'requestedByUserId'
  | 'requestedAt'
  | 'expiresAt'
>;

/** The status a person reads: a pending request past its end is expired, whatever is stored. */
export function statusAt(row: MoneyRequestRow, now: Date): MoneyRequestRow['status'] {
  return row.status === 'pending' && row.expiresAt.getTime() <= now.getTime()
    ? 'expired'
    : row.status;
}

/**
 * Inserts the request, or answers the one made before with the same idempotency key
 * (`isNew: false`): a repeated click is one request.
 */
export async function insertMoneyRequest(
  executor: Executor,
  request: NewMoneyRequest,
): Promise<{ row: MoneyRequestRow; isNew: boolean }> {
  const [created] = await executor
    .insert(moneyRequests)
    .values(request)
    .onConflictDoNothing({ target: moneyRequests.idempotencyKey })
    .returning();
  if (created) return { row: created, isNew: true };
  const [first] = await executor
    .select()
    .from(moneyRequests)
    .where(eq(moneyRequests.idempotencyKey, request.idempotencyKey));
  return { row: first!, isNew: false };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findMoneyRequest(
  executor: Executor,
  id: string,
): Promise<MoneyRequestRow | undefined> {
  if (!UUID.test(id)) return undefined;
  const [row] = await executor.select().from(moneyRequests).where(eq(moneyRequests.id, id));
  return row;
}

export async function findMoneyRequestByKey(
  executor: Executor,
  idempotencyKey: string,
): Promise<MoneyRequestRow | undefined> {
  const [row] = await executor
    .select()
    .from(moneyRequests)
    .where(eq(moneyRequests.idempotencyKey, idempotencyKey));
  return row;
}

/** Who decides: the staff member's username or the command line's --operator, and the account. */
export interface Decider {
  name: string;
  userId: string | null;
}

/**
 * Nobody decides their own request: the same account, or the same name (case aside), since the
 * command line knows its operator only by name.
 */
function notRequestedBy(decider: Decider) {
  const otherName = sql`lower(${moneyRequests.requestedBy}) <> lower(${decider.name})`;
  if (!decider.userId) return otherName;
  return and(
    otherName,
    or(
      isNull(moneyRequests.requestedByUserId),
      ne(moneyRequests.requestedByUserId, decider.userId),
    ),
  );
}

/** The same rule as `notRequestedBy`, on a row already read (to say why a decision failed). */
export function isRequestedBy(row: MoneyRequestRow, decider: Decider): boolean {
  return (
    row.requestedBy.toLowerCase() === decider.name.toLowerCase() ||
    (decider.userId !== null && row.requestedByUserId === decider.userId)
  );
}

/**
 * Approves the request if it is still pending, not expired and not the decider's own: one
 * conditional UPDATE. Answers the approved row, or nothing when another decision won, it expired
 * or it is the decider's own. Run in the transaction that moves the money, so that a refusal of
 * the money step rolls the approval back with it.
 */
export function claimForApproval(
  executor: Executor,
  id: string,
  decider: Decider,
  reason: string | null,
  now: Date,
): Promise<MoneyRequestRow | undefined> {
  return decidePending(executor, id, 'approved', decider, reason, now, notRequestedBy(decider));
}

/**
 * Declines the request if it is still pending and not expired (the requester may withdraw their
 * own this way). Answers the declined row, or nothing.
 */
export function declinePending(
  executor: Executor,
  id: string,
  decider: Decider,
  reason: string,
  now: Date,
): Promise<MoneyRequestRow | undefined> {
  return decidePending(executor, id, 'declined', decider, reason, now);
}

/** Who decided, when and why, as the row stores it; all empty while the request is pending. */
function decisionColumns(decision: { decider: Decider; at: Date; reason: string | null } | null) {
  return {
    decidedBy: decision?.decider.name ?? null,
    decidedByUserId: decision?.decider.userId ?? null,
    decidedAt: decision?.at ?? null,
    decisionReason: decision?.reason ?? null,
  };
}

/** The one decision a pending, unexpired request gets: whoever's UPDATE matches first. */
async function decidePending(
  executor: Executor,
  id: string,
  status: 'approved' | 'declined',
  decider: Decider,
  reason: string | null,
  now: Date,
  condition?: SQL,
): Promise<MoneyRequestRow | undefined> {
  const [row] = await executor
    .update(moneyRequests)
    .set({ status, ...decisionColumns({ decider, at: now, reason }) })
    .where(
      and(
        eq(moneyRequests.id, id),
        eq(moneyRequests.status, 'pending'),
        gt(moneyRequests.expiresAt, now),
        condition,
      ),
    )
    .returning();
  return row;
}

/**
 * The approval of a refund the bank refused goes back to pending: the debit was given back, so
 * nothing moved, and another member may approve again or decline it before it expires. Only the
 * approval this decider made at `decidedAt` (one claim wins, so it is theirs).
 */
export async function reopenApproved(
  executor: Executor,
  id: string,
  decider: Decider,
  decidedAt: Date,
): Promise<void> {
  await executor
    .update(moneyRequests)
    .set({ status: 'pending', ...decisionColumns(null) })
    .where(
      and(
        eq(moneyRequests.id, id),
        eq(moneyRequests.status, 'approved'),
        eq(moneyRequests.decidedBy, decider.name),
        eq(moneyRequests.decidedAt, decidedAt),
      ),
    );
}

/**
 * The requests staff works from: the pending ones not expired, oldest first; with `all`, the
 * latest of every status, newest first.
 */
export function listMoneyRequests(
  executor: Executor,
  options: { all: boolean; now: Date; limit: number },
): Promise<MoneyRequestRow[]> {
  const query = executor.select().from(moneyRequests);
  if (options.all) {
    return query
      .orderBy(desc(moneyRequests.requestedAt), desc(moneyRequests.id))
      .limit(options.limit);
  }
  return query
    .where(and(eq(moneyRequests.status, 'pending'), gt(moneyRequests.expiresAt, options.now)))
    .orderBy(asc(moneyRequests.requestedAt), asc(moneyRequests.id))
    .limit(options.limit);
}
