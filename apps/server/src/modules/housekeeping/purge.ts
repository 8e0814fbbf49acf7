import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database.js';

const DAY_MS = 24 * 60 * 60_000;

/**
 * How long spent or expired rows are kept after they stop mattering. Each is past every rule that
 * reads it: codes past their hourly cap, throttles past the 12 hours after which a count starts
 * over, sessions past the longest idle limit (30 days). The security log keeps a year, as its owner
 * was promised (modules/security-log). Money rows (payments, ledger) are never purged.
 */
export const RETENTION = {
  shortLivedMs: DAY_MS,
  lettersMs: 30 * DAY_MS,
  endedSessionsMs: 30 * DAY_MS,
  idleSessionsMs: 60 * DAY_MS,
  securityLogMs: 365 * DAY_MS,
} as const;

/** Deletes what nothing will read again; answers how many rows each table lost. */
export async function purgeExpired(db: Db, now: Date): Promise<Record<string, number>> {
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const day = at(RETENTION.shortLivedMs);
  const statements = {
    one_time_codes: sql`DELETE FROM one_time_codes
      WHERE expires_at < ${day} AND hour_started_at < ${day}`,
    login_throttles: sql`DELETE FROM login_throttles
      WHERE last_failure_at < ${day} AND (locked_until IS NULL OR locked_until < ${day})`,
    hand_off_codes: sql`DELETE FROM hand_off_codes WHERE expires_at < ${day}`,
    password_reset_logout_grants: sql`DELETE FROM password_reset_logout_grants
      WHERE expires_at < ${day}`,
    telegram_link_tokens: sql`DELETE FROM telegram_link_tokens WHERE expires_at < ${day}`,
    // A spent state must outlive its signature's 10 minutes, or the callback would take it again.
    yandex_flows: sql`DELETE FROM yandex_flows WHERE expires_at < ${day}`,
    passkey_challenges: sql`DELETE FROM passkey_challenges WHERE expires_at < ${day}`,
    email_changes: sql`DELETE FROM email_changes WHERE current_confirmed_at < ${day}`,
    mail_outbox: sql`DELETE FROM mail_outbox
      WHERE status IN ('sent', 'failed', 'expired') AND created_at < ${at(RETENTION.lettersMs)}`,
    sessions: sql`DELETE FROM sessions
      WHERE revoked_at < ${at(RETENTION.endedSessionsMs)}
         OR expires_at < ${at(RETENTION.endedSessionsMs)}
         OR last_activity_at < ${at(RETENTION.idleSessionsMs)}`,
    security_events: sql`DELETE FROM security_events
      WHERE occurred_at < ${at(RETENTION.securityLogMs)}`,
  };
  const deleted: Record<string, number> = {};
  for (const [table, statement] of Object.entries(statements)) {
    const result = (await db.execute(statement)) as unknown as {
      rowCount?: number | null;
      affectedRows?: number;
    };
    deleted[table] = result.rowCount ?? result.affectedRows ?? 0;
  }
  return deleted;
}
