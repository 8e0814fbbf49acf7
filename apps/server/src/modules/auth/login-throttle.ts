/**
 * Brute-force protection of an account's secrets, the account half: password checks at sign-in
 * and every check of a second factor or the current password on behalf of a signed-in account.
 * Counted in the database, so every server process sees the same count.
 *
 * An attempt is counted BEFORE its secret is looked at (`admit`), in one conditional upsert: of
 * any number of parallel requests, at most `failuresBeforeDelay` (10) are let through, and the
 * one that reaches the tenth sets the wait in the same statement. So the wait is in force before
 * the tenth secret is even checked; a right answer lifts it again (`reset`).
 *
 * After 10 counted attempts the account waits: 1 min, then 2, 4, 8, up to 15 min per further
 * attempt. While it waits, every attempt — the right password included — is refused with the
 * same answer and not counted (at sign-in 429 `login_paused` with the wait; `LoginGuard`). Each
 * wait that starts is told to `onLockStarted` (the owner of an account gets a letter). A success resets the count (`reset`); an attempt that proved the
 * password but is not a success yet (the second factor still to come) is given back (`refund`);
 * a count untouched for 12 hours starts over. Subjects (`loginCounterKeys`): the account's id
 * (so username, e-mail and letter case all count together), the login's key for names no
 * account has, so an unknown login behaves exactly like a known one.
 *
 * The per-address half (many accounts from one address → 429) lives in the rate limiter; a
 * sign-in counts in both through `LoginGuard` (login-guard.ts).
 */
import { LOGIN_FAILURES_BEFORE_DELAY, LOGIN_MAX_DELAY_MINUTES } from '@portal/contracts/constants';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import { tooManyRequests } from '../../adapters/rate-limit.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { loginKeys } from '../accounts/index.js';
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

/**
 * Where attempts are counted, for both halves. The keys are stored (`login_throttles.subject`,
 * Redis keys), so their shape does not change.
 */
export const loginCounterKeys = {
  /** Failed sign-ins from one address, across all accounts (the rate limiter). */
  address: (ipAddress: string) => `login-fail:ip:${ipAddress}`,
  /** Every check of an account's secrets (the database), at sign-in and after it. */
  account: (userId: string) => `user:${userId}`,
  /** A login no account has: counted like an account, so it behaves exactly like one. */
  unknownLogin: (usernameOrEmail: string) => `login:${loginKeys(usernameOrEmail).userNameKey}`,
};

/** The account a subject counts for; null for a login no account has. */
export function accountOfSubject(subject: string): string | null {
  return subject.startsWith('user:') ? subject.slice('user:'.length) : null;
}

export type Admission = { isAdmitted: true } | { isAdmitted: false; waitMs: number };

/** A wait that has just started: the subject (`loginCounterKeys`), when, and until when. */
export interface LockStarted {
  subject: string;
  startedAt: Date;
  lockedUntil: Date;
}
export type LockListener = (lock: LockStarted) => void | Promise<void>;

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export interface LoginThrottleDeps {
  db: Db;
  clock: Clock;
}

export class LoginThrottle {
  private readonly lockListeners: LockListener[] = [];

  constructor(private readonly deps: LoginThrottleDeps) {}

  /**
   * Tells `listener` each time an attempt starts a wait, once per wait whatever the number of
   * parallel attempts or processes (only the statement that sets the wait sees it set): the
   * metrics count account locks, the owner's letter is written. The attempt that started the wait
   * awaits its listeners; a listener handles its own failures.
   */
  onLockStarted(listener: LockListener): void {
    this.lockListeners.push(listener);
  }

  /**
   * Counts one attempt and answers whether its secret may be checked. Refused (and not counted)
   * while the subject waits; the attempt that reaches the threshold starts the wait itself.
   */
  async admit(subject: string): Promise<Admission> {
    const { failuresBeforeDelay, firstDelayMs, maxDelayMs, forgetAfterMs } = LOGIN_THROTTLE_RULES;
    const now = this.deps.clock.now();
    const stale = new Date(now.getTime() - forgetAfterMs);
    const next = sql`(CASE WHEN ${loginThrottles.lastFailureAt} < ${at(stale)} THEN 1 ELSE ${loginThrottles.failures} + 1 END)`;
    // 2^steps is capped before it is raised, so a long siege cannot overflow the interval.
    const delayMs = sql`LEAST(${maxDelayMs}::bigint, ${firstDelayMs}::bigint * power(2, LEAST(${next} - ${failuresBeforeDelay}::int, 20))::bigint)`;
    const rows = await this.deps.db
      .insert(loginThrottles)
      .values({ subject, failures: 1, lastFailureAt: now, lockedUntil: lockedUntil(1, now) })
      .onConflictDoUpdate({
        target: loginThrottles.subject,
        set: {
          failures: next,
          lastFailureAt: now,
          lockedUntil: sql`CASE WHEN ${next} >= ${failuresBeforeDelay}::int THEN ${at(now)} + ${delayMs} * interval '1 millisecond' ELSE NULL END`,
        },
        setWhere: sql`${loginThrottles.lockedUntil} IS NULL OR ${loginThrottles.lockedUntil} <= ${at(now)}`,
      })
      .returning({ lockedUntil: loginThrottles.lockedUntil });
    if (rows.length > 0) {
      // Admitted attempts are never inside a wait, so a wait set now is a new one.
      const until = rows[0]!.lockedUntil;
      if (until) {
        const lock: LockStarted = { subject, startedAt: now, lockedUntil: until };
        await Promise.all(this.lockListeners.map((listener) => listener(lock)));
      }
      return { isAdmitted: true };
    }
    return { isAdmitted: false, waitMs: await this.waitMs(subject, now) };
  }

  private async waitMs(subject: string, now: Date): Promise<number> {
    const [row] = await this.deps.db
      .select({ lockedUntil: loginThrottles.lockedUntil })
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, subject));
    return Math.max(1, (row?.lockedUntil?.getTime() ?? 0) - now.getTime());
  }

  /**
   * Gives back one admitted attempt whose password was right but which signs nobody in yet (the
   * second factor is still to come, the address is unconfirmed). The wait it may have started
   * ends with it: the count it was set for is no longer reached.
   */
  async refund(subject: string): Promise<void> {
    await this.deps.db
      .update(loginThrottles)
      .set({ failures: sql`GREATEST(${loginThrottles.failures} - 1, 0)`, lockedUntil: null })
      .where(eq(loginThrottles.subject, subject));
  }

  /** The subject's count and wait as stored, or null when nothing is counted (support reads it). */
  async state(subject: string): Promise<{ failures: number; lockedUntil: Date | null } | null> {
    const [row] = await this.deps.db
      .select({ failures: loginThrottles.failures, lockedUntil: loginThrottles.lockedUntil })
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, subject));
    return row ?? null;
  }

  async reset(subject: string): Promise<void> {
    await this.deps.db.delete(loginThrottles).where(eq(loginThrottles.subject, subject));
  }

  /**
   * Checks a secret of a signed-in account (its password, an authenticator or recovery code)
   * under the account's lock: a waiting account gets 429 and nothing is checked; a wrong secret
   * (`check` throws a 400) stays counted; a right one resets the count; any other refusal gives
   * the attempt back.
   */
  async guard<T>(userId: string, check: () => Promise<T>): Promise<T> {
    const subject = loginCounterKeys.account(userId);
    const admission = await this.admit(subject);
    if (!admission.isAdmitted) throw tooManyRequests(admission.waitMs);
    let result: T;
    try {
      result = await check();
    } catch (error) {
      const isWrongSecret = error instanceof AppError && error.code === 'invalid_input';
      if (!isWrongSecret) await this.refund(subject);
      throw error;
    }
    await this.reset(subject);
    return result;
  }
}

/** The wait an attempt starts when its number reaches the threshold; null below it. */
function lockedUntil(failures: number, now: Date): Date | null {
  const { failuresBeforeDelay, firstDelayMs, maxDelayMs } = LOGIN_THROTTLE_RULES;
  if (failures < failuresBeforeDelay) return null;
  const delay = Math.min(maxDelayMs, firstDelayMs * 2 ** (failures - failuresBeforeDelay));
  return new Date(now.getTime() + delay);
}
