import { createHmac, timingSafeEqual } from 'node:crypto';
import { ONE_TIME_CODE_MAX_ATTEMPTS, ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { deriveKey } from '../two-factor/index.js';
import { passwordResetLogoutGrants } from './schema.js';

const RESET_LOGOUT_GRANT_RULES = {
  ttlMs: ONE_TIME_CODE_TTL_MINUTES * 60_000,
  maxAttempts: ONE_TIME_CODE_MAX_ATTEMPTS,
} as const;

export interface ResetLogoutGrantsDeps {
  db: Db;
  clock: Clock;
  /** SECRET_KEY, from which the grants' own key is derived. */
  secretKey: string;
}

/**
 * The sign-out-everywhere step after a password reset (the reset form's box): the client has no
 * token then, only the e-mail and the code it just used. A successful reset leaves a grant that
 * accepts that pair once, for ten minutes, with the same five tries as a code.
 */
export class ResetLogoutGrants {
  private readonly key: Buffer;

  constructor(private readonly deps: ResetLogoutGrantsDeps) {
    this.key = deriveKey(deps.secretKey, 'reset-logout-grant:v1');
  }

  private hash(userId: string, code: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${code.trim()}`).digest('hex');
  }

  /** Called in the reset's transaction; replaces any earlier grant of the account. */
  async grant(userId: string, code: string, executor: Executor = this.deps.db): Promise<void> {
    const now = this.deps.clock.now();
    const values = {
      codeHash: this.hash(userId, code),
      attempts: 0,
      expiresAt: new Date(now.getTime() + RESET_LOGOUT_GRANT_RULES.ttlMs),
      usedAt: null,
      createdAt: now,
    };
    await executor
      .insert(passwordResetLogoutGrants)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: passwordResetLogoutGrants.userId, set: values });
  }

  /**
   * True once for the right code within the time; the try is counted (and committed) first.
   * `onAccepted` runs in the transaction that spends the grant.
   */
  async redeem(
    userId: string,
    code: string,
    onAccepted: (executor: Executor) => Promise<void>,
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const [counted] = await this.deps.db
      .update(passwordResetLogoutGrants)
      .set({ attempts: sql`${passwordResetLogoutGrants.attempts} + 1` })
      .where(
        and(
          eq(passwordResetLogoutGrants.userId, userId),
          isNull(passwordResetLogoutGrants.usedAt),
          gt(passwordResetLogoutGrants.expiresAt, now),
          lt(passwordResetLogoutGrants.attempts, RESET_LOGOUT_GRANT_RULES.maxAttempts),
        ),
      )
      .returning();
    if (!counted) return false;
    const expected = Buffer.from(counted.codeHash, 'hex');
    const actual = Buffer.from(this.hash(userId, code), 'hex');
    if (!timingSafeEqual(expected, actual)) return false;
    return this.deps.db.transaction(async (tx) => {
      const [spent] = await tx
        .update(passwordResetLogoutGrants)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetLogoutGrants.userId, userId),
            eq(passwordResetLogoutGrants.codeHash, counted.codeHash),
            isNull(passwordResetLogoutGrants.usedAt),
          ),
        )
        .returning({ userId: passwordResetLogoutGrants.userId });
      if (!spent) return false;
      await onAccepted(tx);
      return true;
    });
  }
}
