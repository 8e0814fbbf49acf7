import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';

/** The log keeps a year, as its owner was promised (README.md). */
const EVENTS_KEPT_MS = 365 * 24 * 60 * 60_000;

/** The security log (schema.ts): erased with the account, purged after a year. */
export const securityLogData: DataOwner = {
  module: 'security-log',
  tables: [{ name: 'security_events', onErasure: 'erase' }],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM security_events WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const year = new Date(now.getTime() - EVENTS_KEPT_MS).toISOString();
    return purgeEach(db, {
      security_events: sql`DELETE FROM security_events
      WHERE occurred_at < ${year}`,
    });
  },
};
