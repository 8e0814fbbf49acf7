/**
 * The port through which login asks about a second factor (DESIGN §3 "Two-factor").
 *
 * The authenticator itself (TOTP secrets, 2fa/enable, 2fa/verify, 2fa/disable) belongs to the
 * account-security module (issue 4). It plugs in by giving `buildApp` its implementation —
 * `app.deps.secondFactor` — and nothing in login changes:
 *
 *   isEnabled(userId)             → does login need a code for this user? Also the `user` answer's
 *                                   `isTwoFactorEnabled`.
 *   verifyLoginCode(userId, code) → is this code right now? Called only after the password was
 *                                   right; must refuse a code (time step) that was already used.
 *                                   A `false` counts as a failed login toward the account lock.
 *
 * Until then `noSecondFactor` says "not enabled" for everyone.
 */
export interface SecondFactor {
  isEnabled(userId: string): Promise<boolean>;
  verifyLoginCode(userId: string, code: string): Promise<boolean>;
}

export const noSecondFactor: SecondFactor = {
  isEnabled: async () => false,
  verifyLoginCode: async () => false,
};
