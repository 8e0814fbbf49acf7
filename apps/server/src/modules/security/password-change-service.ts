import { USER_NOT_FOUND } from '@portal/contracts/messages';
import type { PasswordChangeRequest } from '@portal/contracts/security';
import type { Tx } from '../../db/database.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import { findUserById, updateUser } from '../accounts/index.js';
import {
  assertPasswordAllowed,
  codeRefusal,
  hashPassword,
  isCommonPassword,
  verifyPassword,
} from '../auth/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { wrongCode } from '../two-factor/index.js';
import { passwordChangeCodeLetter, passwordChangedLetter } from './letters.js';
import { mailAccountCode } from './mail-account-code.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { ProofDeps } from './proof-service.js';

const PASSWORD_CHANGE_PURPOSE = 'password-change';

/** A change asks what a proof asks (the password and a code), and logs what it did. */
export interface PasswordChangeDeps extends ProofDeps {
  securityLog: SecurityLog;
}

/**
 * Password change from the profile: the current password plus a fresh code — mailed, or the
 * authenticator's when two-factor is on. A wrong current password or a wrong authenticator code
 * counts toward the account's sign-in lock, like a failed login.
 */
export class PasswordChangeService {
  constructor(private readonly deps: PasswordChangeDeps) {}

  /** Mails the code; 409 when the authenticator is on (its code confirms instead). */
  async sendChangeCode(userId: string): Promise<void> {
    const user = await this.requireUser(userId);
    if (await this.deps.twoFactor.isEnabled(user.id)) {
      throw new AppError('conflict', SECURITY_MESSAGES.changeNeedsAuthenticator);
    }
    await mailAccountCode(this.deps, user, PASSWORD_CHANGE_PURPOSE, passwordChangeCodeLetter);
  }

  /**
   * Whether the mailed code is right, without using it up: the form opens only for a right code,
   * and the change itself redeems it. A wrong one costs one of the code's tries, the same tries
   * the change counts, and the refusal says how many are left. 409 when the authenticator is on
   * (its code is checked with the change).
   */
  async checkChangeCode(userId: string, code: string): Promise<void> {
    const { codes, twoFactor } = this.deps;
    const user = await this.requireUser(userId);
    if (await twoFactor.isEnabled(user.id)) {
      throw new AppError('conflict', SECURITY_MESSAGES.changeNeedsAuthenticator);
    }
    const result = await codes.check({ purpose: PASSWORD_CHANGE_PURPOSE, subject: user.id, code });
    if (!result.ok) throw codeRefusal(result.reason, 'code', result.triesLeft);
  }

  /** Sets the new password; `logoutOtherSessions` ends every session but the caller's. */
  async changePassword(
    session: { id: string; userId: string },
    input: PasswordChangeRequest,
    client: EventClient,
  ): Promise<void> {
    const { db, codes, mail, config, sessions, twoFactor, loginThrottle, clock } = this.deps;
    const { oldPassword, newPassword, code, logoutOtherSessions } = input;
    const user = await this.requireUser(session.userId);
    // The new password is judged before any secret is checked, so a typo in it never counts
    // toward the lock.
    if (newPassword === oldPassword) {
      throw invalidInput(SECURITY_MESSAGES.samePassword, {
        newPassword: [SECURITY_MESSAGES.samePassword],
      });
    }
    assertPasswordAllowed(newPassword, user, 'newPassword');

    const apply = async (tx: Tx, passwordHash: string) => {
      // The checkup's flag; the policy above refuses the common ones, so today this writes false.
      const isPasswordCommon = isCommonPassword(newPassword);
      await updateUser(tx, user.id, { passwordHash, isPasswordCommon, updatedAt: clock.now() });
      if (logoutOtherSessions) {
        await sessions.revokeAll(user.id, { exceptSessionId: session.id }, tx);
      }
      await this.deps.securityLog.record(tx, user.id, 'password_changed', client, {
        isSignedOutElsewhere: logoutOtherSessions === true,
      });
      await mail.enqueue(
        passwordChangedLetter(config, { to: user.email, firstName: user.firstName, how: 'change' }),
        tx,
      );
    };

    // Under the account's sign-in lock: a wrong current password or a wrong code stays
    // counted, a waiting account is refused before anything is checked.
    await loginThrottle.guard(user.id, async () => {
      if (!user.passwordHash || !(await verifyPassword(user.passwordHash, oldPassword))) {
        throw invalidInput(SECURITY_MESSAGES.oldPasswordWrong, {
          oldPassword: [SECURITY_MESSAGES.oldPasswordWrong],
        });
      }
      const passwordHash = await hashPassword(newPassword);
      if (await twoFactor.isEnabled(user.id)) {
        const accepted = await db.transaction(async (tx) => {
          if (!(await twoFactor.verifySecondFactor(user.id, code, client, tx))) return false;
          await apply(tx, passwordHash);
          return true;
        });
        if (!accepted) throw wrongCode();
      } else {
        const result = await codes.redeem(
          { purpose: PASSWORD_CHANGE_PURPOSE, subject: user.id, code },
          (_redeemed, tx) => apply(tx, passwordHash),
        );
        if (!result.ok) throw codeRefusal(result.reason);
      }
    });
  }

  private async requireUser(userId: string) {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw notFound(USER_NOT_FOUND);
    return user;
  }
}
