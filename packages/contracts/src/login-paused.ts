import { LOGIN_PAUSED } from './messages';

/** The whole minutes of a login's wait of `retryAfterSeconds` (its 429's Retry-After), rounded up. */
export function pausedMinutes(retryAfterSeconds: number): number {
  return Math.max(1, Math.ceil(retryAfterSeconds / 60));
}

/** The answer to a sign-in while its login waits `retryAfterSeconds` more. */
export function loginPausedMessage(retryAfterSeconds: number): string {
  return LOGIN_PAUSED.replace('{minutes}', String(pausedMinutes(retryAfterSeconds)));
}
