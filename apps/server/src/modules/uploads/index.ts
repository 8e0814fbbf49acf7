// The uploads module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export { findOwnUpload } from './repository.js';
