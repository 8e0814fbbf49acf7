import type { PasskeyAssertion, PasskeyRequestOptions } from '@portal/contracts/passkeys';
import type { Executor } from '../../db/database.js';
import type { EventClient } from '../security-log/index.js';

/**
 * The port through which the sign-in policy (sign-in-policy.ts) asks about the authenticator.
 *
 * The authenticator itself (TOTP secrets, 2fa/enable, 2fa/verify, 2fa/disable) belongs to the
 * two-factor module (`modules/two-factor`): its plugin is registered before this module's and
 * gives its implementation as `app.deps.secondFactor`, which the policy takes when it is built:
 *
 *   isEnabled(userId, executor?)  → does login need a code for this user? Also the `user` answer's
 *                                   `isTwoFactorEnabled`. (`executor`: a sign-in's transaction.)
 *   verifyLoginCode(userId, code, client) → is this code right now? (`client`: for the log) Called only after the password was
 *                                   right; must refuse a code (time step) that was already used.
 *                                   A `false` counts as a failed login toward the account lock.
 */
export interface SecondFactor {
  isEnabled(userId: string, executor?: Executor): Promise<boolean>;
  verifyLoginCode(userId: string, code: string, client: EventClient): Promise<boolean>;
}

/**
 * The port through which the sign-in policy (sign-in-policy.ts) asks about a passkey as the
 * second step, for an account with passkeys and no authenticator
 * (docs/decisions/0028-passkeys.md). The passkeys module gives its implementation with
 * `signInPolicy.usePasskeyStep(…)` when it is registered:
 *
 *   isEnabled(userId, executor?)    → has the account a passkey?
 *   secondStepOptions(userId)       → WebAuthn request options for the account's passkeys (the
 *                                     challenge is kept by the passkeys module, single use).
 *   verifySecondStep(userId, answer) → did one of the account's passkeys sign a challenge made
 *                                     for this account? Spends the challenge either way.
 */
export interface PasskeyStep {
  isEnabled(userId: string, executor?: Executor): Promise<boolean>;
  secondStepOptions(userId: string): Promise<PasskeyRequestOptions>;
  verifySecondStep(userId: string, answer: PasskeyAssertion): Promise<boolean>;
}
