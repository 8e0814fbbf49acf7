import { desc, sql } from 'drizzle-orm';
import { mailOutbox } from '../../adapters/mail-schema.js';
import type { Executor } from '../../db/database.js';

/** The newest letters of the outbox, optionally only those to one address (any case). */
export function newestLetters(executor: Executor, to: string | undefined, limit: number) {
  return executor
    .select()
    .from(mailOutbox)
    .where(to ? sql`lower(${mailOutbox.toAddress}) = ${to.toLowerCase()}` : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.seq))
    .limit(limit);
}
