// The ops module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export { isLocalOperator } from './routes.js';
