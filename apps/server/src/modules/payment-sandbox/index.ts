// The payment-sandbox module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export type { SandboxTerminal } from './terminal.js';
export { SANDBOX_TERMINAL_KEY, sandboxPassword } from './terminal.js';
