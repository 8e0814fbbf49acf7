import type { DataOwners } from '../../db/data-owners.js';
import type { Db } from '../../db/database.js';

/**
 * Deletes what nothing will read again; answers how many rows each table lost. What expires, and
 * how long each spent or expired row is kept after it stops mattering, is said by the module
 * owning the table (`DataOwner.purge`, db/data-owners.ts): codes past their hourly cap, throttles
 * past the 12 hours after which a count starts over, sessions past the longest idle limit
 * (modules/auth/data-owner.ts), letters after 30 days (adapters/mail.ts), the security log after
 * a year (modules/security-log/data-owner.ts). Money rows (payments, ledger) have no purge.
 */
export async function purgeExpired(
  dataOwners: DataOwners,
  db: Db,
  now: Date,
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const owner of dataOwners.list()) {
    if (owner.purge) Object.assign(deleted, await owner.purge(db, now));
  }
  return deleted;
}
