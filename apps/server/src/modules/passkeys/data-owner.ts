import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';

/** An expired challenge is kept a day, then nothing reads it. */
const EXPIRED_KEPT_MS = 24 * 60 * 60_000;

/** The passkeys and their challenges (schema.ts): erased with the account. */
export const passkeysData: DataOwner = {
  module: 'passkeys',
  tables: [
    { name: 'passkeys', onErasure: 'erase' },
    { name: 'passkey_challenges', onErasure: 'erase' },
  ],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM passkeys WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM passkey_challenges WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const day = new Date(now.getTime() - EXPIRED_KEPT_MS).toISOString();
    return purgeEach(db, {
      passkey_challenges: sql`DELETE FROM passkey_challenges WHERE expires_at < ${day}`,
    });
  },
};
