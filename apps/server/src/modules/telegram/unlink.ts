import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { unlinkUserTelegram } from '../accounts/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { TELEGRAM_MESSAGES } from './messages.js';

/**
 * Unlinks the account's Telegram (the route has checked a fresh proof of the owner): sign-in
 * notices stop, the phone it connected stays. `telegram_unlinked` in the same transaction.
 */
export async function unlinkTelegram(
  deps: { db: Db; clock: Clock; securityLog: SecurityLog },
  userId: string,
  client: EventClient,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (!(await unlinkUserTelegram(tx, userId, deps.clock.now()))) {
      throw new AppError('conflict', TELEGRAM_MESSAGES.notLinked);
    }
    await deps.securityLog.record(tx, userId, 'telegram_unlinked', client);
  });
}
