import type { EventClient } from '../security-log/index.js';

/**
 * The port through which login asks about a second factor.
 *
 * The authenticator itself (TOTP secrets, 2fa/enable, 2fa/verify, 2fa/disable) belongs to the
 * two-factor module (`modules/two-factor`): its plugin is registered before this module's and
 * gives its implementation as `app.deps.secondFactor`, which AuthService takes when it is built:
 *
 *   isEnabled(userId)             → does login need a code for this user? Also the `user` answer's
 *                                   `isTwoFactorEnabled`.
 *   verifyLoginCode(userId, code, client) → is this code right now? (`client`: for the log) Called only after the password was
 *                                   right; must refuse a code (time step) that was already used.
 *                                   A `false` counts as a failed login toward the account lock.
 */
export interface SecondFactor {
  isEnabled(userId: string): Promise<boolean>;
  verifyLoginCode(userId: string, code: string, client: EventClient): Promise<boolean>;
}
