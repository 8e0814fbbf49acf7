import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/database.js';
import { preparedPerDb } from '../../db/prepared.js';
import { accountDeletions, type DeletionCancelledBy } from './schema.js';

/** Writes the request, replacing an earlier (cancelled) one; answers false when one waits. */
export async function insertDeletion(
  executor: Executor,
  row: { userId: string; requestedAt: Date; dueAt: Date; tokenHash: string },
): Promise<boolean> {
  const written = await executor
    .insert(accountDeletions)
    .values(row)
    .onConflictDoUpdate({
      target: accountDeletions.userId,
      set: { ...row, cancelledAt: null, cancelledBy: null },
      // A waiting request is kept as it is (its letter's link stays the one that works).
      setWhere: sql`${accountDeletions.cancelledAt} IS NOT NULL`,
    })
    .returning({ userId: accountDeletions.userId });
  return written.length > 0;
}

/** The waiting deletion of the account, if any. */
export async function findWaitingDeletion(executor: Executor, userId: string) {
  const [row] = await executor
    .select()
    .from(accountDeletions)
    .where(and(eq(accountDeletions.userId, userId), isNull(accountDeletions.cancelledAt)));
  return row;
}

/** The row of the account, waiting or cancelled. */
export async function findDeletion(db: Db, userId: string) {
  const [row] = await statements(db).deletionOf.execute({ userId });
  return row;
}

/** Prepared: every site's sign-in through the OpenID provider reads it (db/prepared.ts). */
const statements = preparedPerDb((db) => ({
  deletionOf: db
    .select()
    .from(accountDeletions)
    .where(eq(accountDeletions.userId, sql.placeholder('userId')))
    .prepare('account_deletions_of'),
}));

/**
 * Cancels the waiting deletion named by the account or by the link's token hash: one conditional
 * update, so of any number of simultaneous cancels exactly one changes the row (and sends the
 * letter). Answers the account cancelled, or undefined.
 */
export async function cancelWaitingDeletion(
  executor: Executor,
  by: { userId: string } | { tokenHash: string },
  cancelledBy: DeletionCancelledBy,
  now: Date,
): Promise<string | undefined> {
  const [row] = await executor
    .update(accountDeletions)
    .set({ cancelledAt: now, cancelledBy })
    .where(
      and(
        'userId' in by
          ? eq(accountDeletions.userId, by.userId)
          : eq(accountDeletions.tokenHash, by.tokenHash),
        isNull(accountDeletions.cancelledAt),
      ),
    )
    .returning({ userId: accountDeletions.userId });
  return row?.userId;
}

/** Forgets a cancelled deletion once its owner has been told. */
export async function deleteCancelledDeletion(executor: Executor, userId: string) {
  await executor
    .delete(accountDeletions)
    .where(
      and(eq(accountDeletions.userId, userId), sql`${accountDeletions.cancelledAt} IS NOT NULL`),
    );
}

/** Accounts whose deletion is due, oldest first. */
export async function dueDeletions(executor: Executor, now: Date, limit: number) {
  const rows = await executor
    .select({ userId: accountDeletions.userId })
    .from(accountDeletions)
    .where(and(isNull(accountDeletions.cancelledAt), lte(accountDeletions.dueAt, now)))
    .orderBy(asc(accountDeletions.dueAt))
    .limit(limit);
  return rows.map((row) => row.userId);
}

/**
 * Takes a due deletion for erasure in the caller's transaction: the row is deleted, so a second
 * process running the job at the same time waits for this transaction and then finds nothing.
 */
export async function claimDueDeletion(
  executor: Executor,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await executor
    .delete(accountDeletions)
    .where(
      and(
        eq(accountDeletions.userId, userId),
        isNull(accountDeletions.cancelledAt),
        lte(accountDeletions.dueAt, now),
      ),
    )
    .returning({ userId: accountDeletions.userId });
  return rows.length > 0;
}
