// What the profile embeds of the account's security; everything else in this folder is private.
export { PasswordChangeEntry } from './password-change-entry';
export { ProofStep } from './proof-step';
export { TwoFactorSetting } from './two-factor-setting';
export { useProofThenRetry } from './use-proof-then-retry';
