// The account-data module's public entry: what other modules may use of it. Its plugin
// (plugin.ts, `app.deps.accountDeletion`) and its table (schema.ts) are reached directly.

export { EXPORT_PARTS, type ExportContext, type ExportPart } from './export-parts.js';
