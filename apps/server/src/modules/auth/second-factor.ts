import type { PasskeyAssertion, PasskeyRequestOptions } from '@portal/contracts/passkeys';
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

/**
 * The port through which login asks about a passkey as the second step, for an account with
 * passkeys and no authenticator (docs/decisions/0028-passkeys.md). The passkeys module gives
 * its implementation with `auth.usePasskeyStep(…)` when it is registered:
 *
 *   isEnabled(userId)               → has the account a passkey?
 *   secondStepOptions(userId)       → WebAuthn request options for the account's passkeys (the
 *                                     challenge is kept by the passkeys module, single use).
 *   verifySecondStep(userId, answer) → did one of the account's passkeys sign a challenge made
 *                                     for this account? Spends the challenge either way.
 */
export interface PasskeyStep {
  isEnabled(userId: string): Promise<boolean>;
  secondStepOptions(userId: string): Promise<PasskeyRequestOptions>;
  verifySecondStep(userId: string, answer: PasskeyAssertion): Promise<boolean>;
}
