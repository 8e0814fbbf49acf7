// The two-factor module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export { deriveKey, SecretBox, TOTP_SECRET_PURPOSE } from './secret-box.js';
export { totpCode } from './totp.js';
export type { TwoFactorService } from './two-factor-service.js';
export { wrongCode } from './two-factor-service.js';
