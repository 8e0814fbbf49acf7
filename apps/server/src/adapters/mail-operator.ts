/**
 * The outbox as support handles it (`npm run admin -- letters`): letters that are stuck, one sent
 * again, one dropped. The sender (mail.ts) does the sending: a letter made due here is sent by a
 * running portal's next pass (within seconds).
 */
import { and, asc, desc, eq, gt, lte, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { type MailOutboxRow, mailOutbox } from './mail-schema.js';

/**
 * Letters that did not go and still could: given up after days of failures (`failed`), failing
 * and waiting for a retry (`pending` with attempts), or claimed by a sender that died (`sending`
 * past its lease). Expired code letters are not listed: their codes no longer work.
 */
export function listStuckLetters(executor: Executor, now: Date, limit = 100) {
  return executor
    .select({
      id: mailOutbox.id,
      toAddress: mailOutbox.toAddress,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      createdAt: mailOutbox.createdAt,
      nextAttemptAt: mailOutbox.nextAttemptAt,
      lastError: mailOutbox.lastError,
    })
    .from(mailOutbox)
    .where(
      or(
        eq(mailOutbox.status, 'failed'),
        and(eq(mailOutbox.status, 'pending'), gt(mailOutbox.attempts, 0)),
        and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(mailOutbox.createdAt))
    .limit(limit);
}

export async function findLetter(
  executor: Executor,
  id: string,
): Promise<MailOutboxRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const [row] = await executor.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}

/**
 * Makes a stuck letter due now (failed or waiting letters whose body is still kept). Answers the
 * row, or undefined when it is no longer one (sent meanwhile, being sent, expired).
 */
export async function resendLetter(executor: Executor, id: string, now: Date) {
  const [row] = await executor
    .update(mailOutbox)
    .set({ status: 'pending', nextAttemptAt: now, lockedUntil: null })
    .where(
      and(
        eq(mailOutbox.id, id),
        or(
          eq(mailOutbox.status, 'failed'),
          eq(mailOutbox.status, 'pending'),
          and(eq(mailOutbox.status, 'sending'), lte(mailOutbox.lockedUntil, now)),
        ),
        ne(mailOutbox.textBody, ''),
        // A letter with a code is not sent past the code's expiry, by hand either.
        or(sql`${mailOutbox.expiresAt} IS NULL`, gt(mailOutbox.expiresAt, now)),
      ),
    )
    .returning();
  return row;
}

/** Removes a letter that was not sent and is not being sent right now; answers it. */
export async function dropLetter(executor: Executor, id: string, now: Date) {
  const [row] = await executor
    .delete(mailOutbox)
    .where(
      and(
        eq(mailOutbox.id, id),
        ne(mailOutbox.status, 'sent'),
        or(ne(mailOutbox.status, 'sending'), lte(mailOutbox.lockedUntil, now)),
      ),
    )
    .returning();
  return row;
}

/** The latest letters to an address (the staff's account page), newest first. */
export function lettersToAddress(executor: Executor, address: string, limit: number) {
  return executor
    .select({
      id: mailOutbox.id,
      subject: mailOutbox.subject,
      status: mailOutbox.status,
      attempts: mailOutbox.attempts,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(
      and(
        sql`lower(${mailOutbox.toAddress}) = ${address.trim().toLowerCase()}`,
        eq(mailOutbox.kind, 'letter'),
      ),
    )
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.seq))
    .limit(limit);
}
