import { sql } from 'drizzle-orm';
import { type DataOwner, purgeEach } from '../../db/data-owners.js';
import type { SessionStore } from './sessions.js';

const DAY_MS = 24 * 60 * 60_000;
/** Codes past their hourly cap, throttles past the 12 hours after which a count starts over. */
const SPENT_KEPT_MS = DAY_MS;
/** Ended sessions: past the longest idle limit (30 days), nothing reads them again. */
const ENDED_SESSIONS_KEPT_MS = 30 * DAY_MS;
const IDLE_SESSIONS_KEPT_MS = 60 * DAY_MS;

/**
 * The identity core's tables (schema.ts): all erased with the account, the spent ones purged.
 * The sessions are revoked through the store first, as logout-all does, so every process stops
 * accepting them at once (sessions.ts).
 */
export const authData = (sessions: SessionStore): DataOwner => ({
  module: 'auth',
  tables: [
    { name: 'one_time_codes', onErasure: 'erase' },
    { name: 'login_throttles', onErasure: 'erase' },
    { name: 'hand_off_codes', onErasure: 'erase' },
    { name: 'sessions', onErasure: 'erase' },
    { name: 'sibling_users', onErasure: 'erase' },
  ],
  async erase(tx, { userId, emailKey }) {
    await sessions.revokeAll(userId, {}, tx);
    await tx.execute(sql`DELETE FROM one_time_codes
    WHERE user_id = ${userId} OR subject IN (${userId}, ${emailKey})`);
    await tx.execute(sql`DELETE FROM login_throttles WHERE subject = ${`user:${userId}`}`);
    await tx.execute(sql`DELETE FROM hand_off_codes WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM sessions WHERE user_id = ${userId}`);
    await tx.execute(sql`DELETE FROM sibling_users WHERE user_id = ${userId}`);
  },
  purge(db, now) {
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const day = at(SPENT_KEPT_MS);
    return purgeEach(db, {
      one_time_codes: sql`DELETE FROM one_time_codes
      WHERE expires_at < ${day} AND hour_started_at < ${day}`,
      login_throttles: sql`DELETE FROM login_throttles
      WHERE last_failure_at < ${day} AND (locked_until IS NULL OR locked_until < ${day})`,
      hand_off_codes: sql`DELETE FROM hand_off_codes WHERE expires_at < ${day}`,
      sessions: sql`DELETE FROM sessions
      WHERE revoked_at < ${at(ENDED_SESSIONS_KEPT_MS)}
         OR expires_at < ${at(ENDED_SESSIONS_KEPT_MS)}
         OR last_activity_at < ${at(IDLE_SESSIONS_KEPT_MS)}`,
    });
  },
});
