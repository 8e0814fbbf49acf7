// What other features may use of the password reset: how to open its code step directly.
export type { ResetPasswordEntry } from './reset-password-flow';
