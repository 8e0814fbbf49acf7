import type { ResetPasswordRequest } from '@portal/contracts/security';
import { TransactionRollbackError } from 'drizzle-orm';
import { enforceLimit } from '../../adapters/rate-limit.js';
import type { Executor } from '../../db/database.js';
import type { AppDeps } from '../../deps.js';
import { emailKey, findUserByEmailKey, updateUser } from '../accounts/index.js';
import {
  assertPasswordAllowed,
  CodeResendRefused,
  codeRefusal,
  hashPassword,
  isCommonPassword,
  issueMailedCode,
} from '../auth/index.js';
import type { EventClient } from '../security-log/index.js';
import { passwordChangedLetter, resetCodeLetter } from './letters.js';
import type { ResetLogoutGrants } from './reset-logout-grants.js';

const MINUTE = 60_000;
const PASSWORD_RESET_PURPOSE = 'password-reset';
/** Per source address, whatever the e-mail: a limit that says nothing about any account. */
const PASSWORD_RESET_LIMITS = {
  requests: { limit: 10, windowMs: 15 * MINUTE },
  checks: { limit: 30, windowMs: 15 * MINUTE },
} as const;

export interface PasswordResetDeps
  extends Pick<
    AppDeps,
    | 'config'
    | 'db'
    | 'clock'
    | 'codes'
    | 'mail'
    | 'rateLimiter'
    | 'sessions'
    | 'loginThrottle'
    | 'securityLog'
  > {
  /** A reset issues the grant that the `logout-all` right after it redeems. */
  grants: ResetLogoutGrants;
}

/** Password recovery by an e-mail code: ask for a code, then set the password with it. */
export class PasswordResetService {
  constructor(private readonly deps: PasswordResetDeps) {}

  /**
   * Mails a code to a known, confirmed address. Whatever the address, the caller learns nothing:
   * the same work, the same answer, no error inside the resend countdown.
   */
  async sendResetCode(email: string, ipAddress: string): Promise<void> {
    const { db, codes, mail, config, rateLimiter } = this.deps;
    await enforceLimit(
      rateLimiter,
      `reset-request:ip:${ipAddress}`,
      PASSWORD_RESET_LIMITS.requests,
    );
    const key = emailKey(email);
    const user = await findUserByEmailKey(db, key);
    const isKnown = Boolean(user?.confirmedAt);
    try {
      await db.transaction(async (tx) => {
        await issueMailedCode(
          { codes, mail },
          isKnown && user
            ? { purpose: PASSWORD_RESET_PURPOSE, subject: user.id, userId: user.id }
            : { purpose: PASSWORD_RESET_PURPOSE, subject: `unknown:${key}` },
          ({ code, expiresAt }) =>
            resetCodeLetter(config, {
              to: user?.email ?? key,
              firstName: user?.firstName ?? '',
              code,
              expiresAt,
            }),
          tx,
        );
        // An unknown or unconfirmed address does the same work and keeps none of it, so the
        // answer does not differ in time either (docs/decisions/0007).
        if (!isKnown) tx.rollback();
      });
    } catch (error) {
      // Inside the resend countdown the answer must still not differ from any other.
      if (!(error instanceof CodeResendRefused || error instanceof TransactionRollbackError)) {
        throw error;
      }
    }
  }

  /**
   * Mails a reset code to a known account in the caller's transaction («Это был не я»). Inside
   * the resend countdown the code already mailed stands and nothing more is sent. Answers the
   * seconds until another code may be asked for.
   */
  async mailResetCode(
    tx: Executor,
    user: { id: string; email: string; firstName: string },
  ): Promise<number> {
    const { codes, mail, config } = this.deps;
    try {
      const issued = await issueMailedCode(
        { codes, mail },
        { purpose: PASSWORD_RESET_PURPOSE, subject: user.id, userId: user.id },
        ({ code, expiresAt }) =>
          resetCodeLetter(config, { to: user.email, firstName: user.firstName, code, expiresAt }),
        tx,
      );
      return issued.resendAfterSeconds;
    } catch (error) {
      if (!(error instanceof CodeResendRefused)) throw error;
      return error.secondsLeft;
    }
  }

  /**
   * Sets the new password with the mailed code; with `logoutEverywhere` every session of the
   * account ends in the same transaction.
   */
  async resetPassword(input: ResetPasswordRequest, client: EventClient): Promise<void> {
    const { codes, mail, config, rateLimiter, sessions, loginThrottle, clock, grants } = this.deps;
    const { email, newPassword, code, logoutEverywhere } = input;
    await enforceLimit(
      rateLimiter,
      `reset-check:ip:${client.ipAddress}`,
      PASSWORD_RESET_LIMITS.checks,
    );
    // Checks that say nothing about the account come before the code is spent.
    if (isCommonPassword(newPassword)) assertPasswordAllowed(newPassword, {}, 'newPassword');
    const user = await findUserByEmailKey(this.deps.db, emailKey(email));
    // An unknown or unconfirmed address fails like a wrong code: nothing to learn here.
    if (!user?.confirmedAt) throw codeRefusal('wrong');

    const result = await codes.redeem(
      { purpose: PASSWORD_RESET_PURPOSE, subject: user.id, code },
      async (_redeemed, tx) => {
        // Throwing here keeps the code usable, so a refused password costs no try.
        assertPasswordAllowed(newPassword, user, 'newPassword');
        const passwordHash = await hashPassword(newPassword);
        const isPasswordCommon = isCommonPassword(newPassword);
        await updateUser(tx, user.id, { passwordHash, isPasswordCommon, updatedAt: clock.now() });
        // In the reset's own transaction: the password and the sign-out happen together or not.
        if (logoutEverywhere) await sessions.revokeAll(user.id, {}, tx);
        await grants.grant(user.id, code, tx);
        await this.deps.securityLog.record(tx, user.id, 'password_reset', client, {
          isSignedOutElsewhere: logoutEverywhere === true,
        });
        await mail.enqueue(
          passwordChangedLetter(config, {
            to: user.email,
            firstName: user.firstName,
            how: 'reset',
          }),
          tx,
        );
      },
    );
    if (!result.ok) throw codeRefusal(result.reason);
    // Whoever proved the mailbox may sign in again at once.
    await loginThrottle.reset(`user:${user.id}`);
  }
}
