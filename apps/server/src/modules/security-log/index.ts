// The security log's public entry: what other modules may use of it. Its plugin (plugin.ts,
// `app.deps.securityLog`) and its table (schema.ts) are reached directly.

export { clientOf, type EventClient, NO_CLIENT } from './request-client.js';
export type { SecurityLog, SignInEvent } from './security-log-service.js';
