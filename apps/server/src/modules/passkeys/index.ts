// The passkeys module's public entry: what other modules may use of it. Its plugin (plugin.ts,
// `app.deps.passkeys`) and its tables (schema.ts) are reached directly.

export type { PasskeyService } from './passkey-service.js';
export { listPasskeysForExport } from './repository.js';
