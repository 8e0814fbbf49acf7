import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';

/** A confirmed change is kept a day, then nothing reads it. */
const CONFIRMED_KEPT_MS = 24 * 60 * 60_000;

/** The e-mail changes (schema.ts): erased with the account, purged a day after confirmation. */
export const profileData: DataOwner = {
  module: 'profile',
  tables: [{ name: 'email_changes', onErasure: 'erase' }],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM email_changes WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const day = new Date(now.getTime() - CONFIRMED_KEPT_MS).toISOString();
    return purgeEach(db, {
      email_changes: sql`DELETE FROM email_changes WHERE current_confirmed_at < ${day}`,
    });
  },
};
