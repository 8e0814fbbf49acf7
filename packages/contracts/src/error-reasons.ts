/**
 * Why a call was refused, for clients that act on it rather than only show the message:
 * `proof_required` (403) — the session must prove its owner again (`POST …/Auth/proof`), then
 * repeat the call; `code_pending` (429) — a code was mailed a moment ago and is still good: type
 * it, and ask for another after `Retry-After`; `login_paused` (429) — the login waits after too
 * many wrong attempts, for `Retry-After` seconds; `sign_in_again` (409) — a site asked for a
 * fresh sign-in (OpenID `prompt=login`, `max_age`): sign in again, then repeat the call;
 * `staff_proof_required` (403) — a staff call needs a fresh passkey or authenticator proof
 * (staff.ts), then repeat the call.
 *
 * Apart from the schemas (common.ts), so the web app reads an error answer before zod loads.
 */
export const ERROR_REASONS = [
  'proof_required',
  'code_pending',
  'account_blocked',
  'login_paused',
  'sign_in_again',
  'staff_proof_required',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

export const isErrorReason = (value: unknown): value is ErrorReason =>
  (ERROR_REASONS as readonly unknown[]).includes(value);
