import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';

/** A spent state must outlive its signature's 10 minutes, or the callback would take it again. */
const EXPIRED_KEPT_MS = 24 * 60 * 60_000;

/** The sign-in flows (schema.ts): erased with the account, purged a day after they expire. */
export const yandexData: DataOwner = {
  module: 'yandex',
  tables: [{ name: 'yandex_flows', onErasure: 'erase' }],
  async erase(tx, { userId }) {
    await tx.execute(sql`DELETE FROM yandex_flows WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const day = new Date(now.getTime() - EXPIRED_KEPT_MS).toISOString();
    return purgeEach(db, {
      yandex_flows: sql`DELETE FROM yandex_flows WHERE expires_at < ${day}`,
    });
  },
};
