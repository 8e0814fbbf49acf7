import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';

/** An expired link token is kept a day, then nothing reads it. */
const EXPIRED_KEPT_MS = 24 * 60 * 60_000;

/** The link tokens (schema.ts): erased with the account, purged a day after they expire. */
export const telegramData: DataOwner = {
  module: 'telegram',
  tables: [{ name: 'telegram_link_tokens', onErasure: 'erase' }],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM telegram_link_tokens WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const day = new Date(now.getTime() - EXPIRED_KEPT_MS).toISOString();
    return purgeEach(db, {
      telegram_link_tokens: sql`DELETE FROM telegram_link_tokens WHERE expires_at < ${day}`,
    });
  },
};
