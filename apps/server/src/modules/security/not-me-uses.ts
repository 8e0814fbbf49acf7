import type { Executor } from '../../db/database.js';
import { notMeUses } from './schema.js';

/**
 * Marks the «Это был не я» link of `eventId` used, in the caller's transaction. One INSERT … ON
 * CONFLICT DO NOTHING: of any number of concurrent uses exactly one inserts (the others wait for
 * its transaction and then find the row), so the link takes effect once. False: used already.
 */
export async function claimNotMeUse(
  executor: Executor,
  use: { eventId: string; userId: string; usedAt: Date },
): Promise<boolean> {
  const rows = await executor
    .insert(notMeUses)
    .values({ securityEventId: use.eventId, userId: use.userId, usedAt: use.usedAt })
    .onConflictDoNothing()
    .returning({ id: notMeUses.securityEventId });
  return rows.length > 0;
}
