import type { User } from '@portal/contracts/auth';
/** The statuses of a second-factor method. */
export type TwoFactorMethodStatus = 'connected' | 'unconnected' | 'unavailable';

/**
 * A linked Telegram also marks the phone connected; a phone shared with the bot is
 * connected in any case. Unknown while the Telegram check runs.
 */
export function phoneStatus(
  user: Pick<User, 'phoneNamber'>,
  telegram: TwoFactorMethodStatus,
): TwoFactorMethodStatus {
  if (user.phoneNamber || telegram === 'connected') return 'connected';
  return telegram === 'unavailable' ? 'unavailable' : 'unconnected';
}

/**
 * Yandex ID is connected once the account carries a Yandex id; an account without one on a
 * portal with no Yandex ID application cannot link it: unavailable.
 */
export function yandexStatus(
  user: Pick<User, 'yandexId'>,
  isOffered: boolean,
): TwoFactorMethodStatus {
  if (user.yandexId) return 'connected';
  return isOffered ? 'unconnected' : 'unavailable';
}

/**
 * Telegram as the profile shows it: what the check says, but unavailable rather than
 * unconnected on a portal with no bot (there is nothing to connect to).
 */
export function telegramStatus(
  checked: TwoFactorMethodStatus,
  isOffered: boolean,
): TwoFactorMethodStatus {
  return checked === 'unconnected' && !isOffered ? 'unavailable' : checked;
}

/**
 * Telegram's status from its query: unavailable while the first check runs and when it failed with
 * nothing known; once known, a re-check (the bot awaited, the window focused) keeps what is shown
 * until its answer, also when it fails.
 */
export function telegramCheckStatus(check: { data?: boolean }): TwoFactorMethodStatus {
  if (check.data === undefined) return 'unavailable';
  return check.data ? 'connected' : 'unconnected';
}
