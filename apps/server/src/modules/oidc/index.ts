// The oidc module's public entry: what other modules may use of it (the operator's tool lists
// and rotates the signing keys through `app.deps.oidcSigningKeys`). Its plugin (plugin.ts) and
// its tables (schema.ts) are reached directly.

export type { KeyInfo, KeyState, SigningKeys } from './signing-keys.js';
