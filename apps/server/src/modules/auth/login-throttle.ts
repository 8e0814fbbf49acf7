/**
 * Brute-force protection of login (DESIGN §3), the account half: consecutive failures per
 * account, counted in the database so every server process sees the same count.
 *
 * After `failuresBeforeDelay` (10) consecutive failures the account waits: 1 min, then 2, 4, 8,
 * up to 15 min per further failure. While it waits, every attempt — the right password included
 * — is refused with the same message and not counted. A success resets the count; a count
 * untouched for 12 hours starts over. Subjects: 'user:<id>' for accounts (so username, e-mail
 * and letter case all count together), 'login:<key>' for names no account has, so an unknown
 * login behaves exactly like a known one.
 *
 * The per-address half (many accounts from one address → 429) lives in the rate limiter.
 */
import { LOGIN_FAILURES_BEFORE_DELAY, LOGIN_MAX_DELAY_MINUTES } from '@portal/contracts/constants';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import { loginThrottles } from './schema.js';

const MINUTE = 60_000;

export const LOGIN_THROTTLE_RULES = {
  failuresBeforeDelay: LOGIN_FAILURES_BEFORE_DELAY,
  firstDelayMs: MINUTE,
  maxDelayMs: LOGIN_MAX_DELAY_MINUTES * MINUTE,
  forgetAfterMs: 12 * 60 * MINUTE,
  /** Failed logins from one address, across all accounts, before it gets 429. */
  perAddress: { limit: 30, windowMs: 15 * MINUTE },
} as const;

function lockDelayMs(failures: number): number {
  if (failures < LOGIN_THROTTLE_RULES.failuresBeforeDelay) return 0;
  const steps = failures - LOGIN_THROTTLE_RULES.failuresBeforeDelay;
  return Math.min(LOGIN_THROTTLE_RULES.maxDelayMs, LOGIN_THROTTLE_RULES.firstDelayMs * 2 ** steps);
}

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Milliseconds the subject must still wait; 0 when it may try. */
  async waitMs(subject: string): Promise<number> {
    const [row] = await this.db
      .select({ lockedUntil: loginThrottles.lockedUntil })
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, subject));
    const left = (row?.lockedUntil?.getTime() ?? 0) - this.clock.now().getTime();
    return Math.max(0, left);
  }

  async recordFailure(subject: string): Promise<{ failures: number; waitMs: number }> {
    const now = this.clock.now();
    const stale = new Date(now.getTime() - LOGIN_THROTTLE_RULES.forgetAfterMs).toISOString();
    const [row] = await this.db
      .insert(loginThrottles)
      .values({ subject, failures: 1, lastFailureAt: now, lockedUntil: null })
      .onConflictDoUpdate({
        target: loginThrottles.subject,
        set: {
          failures: sql`CASE WHEN ${loginThrottles.lastFailureAt} < ${stale}::timestamptz THEN 1 ELSE ${loginThrottles.failures} + 1 END`,
          lastFailureAt: now,
        },
      })
      .returning({ failures: loginThrottles.failures });
    const failures = row?.failures ?? 1;
    const waitMs = lockDelayMs(failures);
    if (waitMs > 0) {
      await this.db
        .update(loginThrottles)
        .set({ lockedUntil: new Date(now.getTime() + waitMs) })
        .where(eq(loginThrottles.subject, subject));
    }
    return { failures, waitMs };
  }

  async reset(subject: string): Promise<void> {
    await this.db.delete(loginThrottles).where(eq(loginThrottles.subject, subject));
  }
}
