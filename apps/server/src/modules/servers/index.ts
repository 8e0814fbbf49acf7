// The servers module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export type { ServiceRow } from './schema.js';
export { hasActivePaidService, listServicesOf } from './services-repository.js';
