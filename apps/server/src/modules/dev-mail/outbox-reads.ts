import { desc, sql } from 'drizzle-orm';
import { mailOutbox } from '../../adapters/mail-schema.js';
import type { Executor } from '../../db/database.js';

/** The newest letters of the outbox (no other kind of item), optionally only those to one address (any case). */
export function newestLetters(executor: Executor, to: string | undefined, limit: number) {
  return (
    executor
      .select()
      .from(mailOutbox)
      // Letters only: the outbox's other items (a site's back-channel logout) are no mail.
      .where(
        to
          ? sql`${mailOutbox.kind} = 'letter' AND lower(${mailOutbox.toAddress}) = ${to.toLowerCase()}`
          : sql`${mailOutbox.kind} = 'letter'`,
      )
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.seq))
      .limit(limit)
  );
}
