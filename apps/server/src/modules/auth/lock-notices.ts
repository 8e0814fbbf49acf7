import type { Mailer } from '../../adapters/mail.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { findUserById } from '../accounts/index.js';
import { accountLockedLetter } from './letters.js';
import { accountOfSubject, type LockListener } from './login-throttle.js';

interface NoticeLog {
  error(obj: object, message: string): void;
}

/**
 * The owner's letter when an account's sign-in starts to wait (`LoginThrottle.onLockStarted`,
 * told once per wait by the statement that set it, in any process): written to the outbox right
 * then. A login no account has, or an account whose address was never confirmed, gets nothing.
 * A failure to write it is logged and does not change the sign-in's answer.
 */
export function mailLockNotices(
  deps: { config: Config; db: Db; mail: Mailer },
  log: NoticeLog,
): LockListener {
  return async ({ subject, startedAt, lockedUntil }) => {
    const userId = accountOfSubject(subject);
    if (!userId) return;
    try {
      const user = await findUserById(deps.db, userId);
      if (!user?.confirmedAt) return;
      await deps.mail.enqueue(
        accountLockedLetter(deps.config, {
          to: user.email,
          firstName: user.firstName,
          startedAt,
          lockedUntil,
        }),
      );
    } catch (error) {
      log.error({ err: error, userId }, 'the account lock letter was not written');
    }
  };
}
