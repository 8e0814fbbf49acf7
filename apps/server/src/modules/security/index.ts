// The security module's public entry: what other modules may use of it. Its plugin (plugin.ts,
// `app.deps.notMeLinks`) and its tables (schema.ts) are reached directly.

export { NOT_ME_LINK_TTL_MS, type NotMeLinks } from './not-me-links.js';
