import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';

/** A spent or expired grant is kept a day, then nothing reads it. */
const SPENT_KEPT_MS = 24 * 60 * 60_000;

/** The reset's sign-out grants and the «Это был не я» uses (schema.ts). */
export const securityData: DataOwner = {
  module: 'security',
  tables: [
    { name: 'password_reset_logout_grants', onErasure: 'erase' },
    {
      name: 'not_me_uses',
      onErasure: 'erase',
      why: 'goes with its security_events row (ON DELETE CASCADE), which security-log erases',
    },
  ],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM password_reset_logout_grants
    WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const day = new Date(now.getTime() - SPENT_KEPT_MS).toISOString();
    return purgeEach(db, {
      password_reset_logout_grants: sql`DELETE FROM password_reset_logout_grants
      WHERE expires_at < ${day}`,
    });
  },
};
