import type { User } from '@portal/contracts/auth';
import type { TwoFactorMethodStatus } from './telegram-slice';

/**
 * Spec §4: a linked Telegram also marks the phone connected; a phone shared with the bot is
 * connected in any case. Unknown while the Telegram check runs.
 */
export function phoneStatus(
  user: Pick<User, 'phoneNamber'>,
  telegram: TwoFactorMethodStatus,
): TwoFactorMethodStatus {
  if (user.phoneNamber || telegram === 'connected') return 'connected';
  return telegram === 'unavailable' ? 'unavailable' : 'unconnected';
}

/** Yandex ID is connected once the account carries a Yandex id. */
export function yandexStatus(user: Pick<User, 'yandexId'>): TwoFactorMethodStatus {
  return user.yandexId ? 'connected' : 'unconnected';
}
