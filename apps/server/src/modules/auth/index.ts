// The auth module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export { hasSignedInThrough } from './hand-off.js';
export type { LoginOutcome } from './login-guard.js';
export { LOGIN_OUTCOMES, LoginRefused } from './login-guard.js';
export type { LoginThrottle } from './login-throttle.js';
export { loginCounterKeys } from './login-throttle.js';
export { issueMailedCode } from './mailed-codes.js';
export type { OneTimeCodes } from './one-time-codes.js';
export { CodeResendRefused, codeRefusal } from './one-time-codes.js';
export { assertPasswordAllowed, isCommonPassword } from './password-policy.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { assertRecentlyProven, proofExpiry, requireRecentProof } from './recent-proof.js';
export { AUTH_PREFIX } from './routes.js';
export type { SessionRow } from './schema.js';
export type { PasskeyStep, SecondFactor } from './second-factor.js';
export type { AuthenticatedSession, SessionSignIn, SessionStore } from './sessions.js';
export {
  AccountBlocked,
  bearerToken,
  findSessionById,
  generateToken,
  hashToken,
  requireSession,
  requireSessionOfAnySite,
  sessionOf,
} from './sessions.js';
export type { Sibling } from './siblings.js';
export { requireSiblingKey, siblingKeys, siblingOf, siblingSites, siteName } from './siblings.js';
export type { SecondStep, SignInPolicy, SignInResult, WayIn } from './sign-in-policy.js';
