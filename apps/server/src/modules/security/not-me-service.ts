import type { NotMeAnswer } from '@portal/contracts/security';
import type { Executor } from '../../db/database.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../http/app-error.js';
import { findUserById, updateUser } from '../accounts/index.js';
import {
  describeDevice,
  describeMoment,
  type EventClient,
  type NewDeviceSignIn,
} from '../security-log/index.js';
import { newDeviceSignInLetter } from './letters.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { NotMeLinks } from './not-me-links.js';
import { claimNotMeUse } from './not-me-uses.js';
import type { PasswordResetService } from './password-reset-service.js';

export interface NotMeDeps
  extends Pick<AppDeps, 'config' | 'db' | 'clock' | 'mail' | 'sessions' | 'securityLog'> {
  links: NotMeLinks;
  passwords: PasswordResetService;
}

/**
 * The alert letter after a sign-in from a new device, and what its «Это был не я» link does: end
 * every session of the account, mail a password reset code, log `not_me` — once per link.
 */
export class NotMeService {
  constructor(private readonly deps: NotMeDeps) {}

  /**
   * SecurityLog's new-device listener: runs in the sign-in's transaction, so the letter is
   * written to the outbox with it (and not at all if the sign-in rolls back).
   */
  readonly onNewDeviceSignIn = async (executor: Executor, signIn: NewDeviceSignIn) => {
    const user = await findUserById(executor, signIn.userId);
    if (!user?.confirmedAt || !user.signInAlertsByEmail) return;
    await this.deps.mail.enqueue(
      newDeviceSignInLetter(this.deps.config, {
        to: user.email,
        firstName: user.firstName,
        userName: user.userName,
        device: describeDevice(signIn.client.userAgent),
        ipAddress: signIn.client.ipAddress,
        when: describeMoment(signIn.occurredAt),
        notMeUrl: this.deps.links.url(user.id, signIn.eventId, signIn.occurredAt),
      }),
      executor,
    );
  };

  /**
   * The owner says a sign-in was not theirs. One transaction: the link is claimed (a used one
   * changes nothing), every session ends (every process refuses them before this answers: the
   * SessionStore's revocation marks), a reset code is mailed, `not_me` is logged.
   */
  async confirm(token: string, client: EventClient): Promise<NotMeAnswer> {
    const { db, clock, links, sessions, securityLog, passwords } = this.deps;
    const now = clock.now();
    const link = links.check(token, now);
    if (!link.ok) {
      throw refused(
        link.reason === 'expired'
          ? SECURITY_MESSAGES.notMeLinkExpired
          : SECURITY_MESSAGES.notMeLinkInvalid,
      );
    }
    return db.transaction(async (tx) => {
      const user = await findUserById(tx, link.userId);
      // A deleted account: its events (and their uses) went with it.
      if (!user) throw refused(SECURITY_MESSAGES.notMeLinkInvalid);
      const claimed = await claimNotMeUse(tx, {
        eventId: link.eventId,
        userId: user.id,
        usedAt: now,
      });
      if (!claimed) throw refused(SECURITY_MESSAGES.notMeLinkUsed);
      await sessions.revokeAll(user.id, {}, tx);
      await securityLog.record(tx, user.id, 'not_me', client);
      const resendAfterSeconds = await passwords.mailResetCode(tx, user);
      return { message: SECURITY_MESSAGES.notMeDone, email: user.email, resendAfterSeconds };
    });
  }
}

/** The profile's switch: the alert letter after a sign-in from a new device, on or off. */
export async function setSignInAlertsByEmail(
  deps: Pick<NotMeDeps, 'db' | 'clock'>,
  userId: string,
  byEmail: boolean,
): Promise<void> {
  await updateUser(deps.db, userId, { signInAlertsByEmail: byEmail, updatedAt: deps.clock.now() });
}

function refused(message: string): AppError {
  return new AppError('invalid_input', message, { errors: { token: [message] } });
}
