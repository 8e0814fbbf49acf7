// Every table the server knows, gathered for Drizzle's typed queries. Each module owns its
// `schema.ts`; add one line here per module. The SQL itself lives in ../../migrations.

export * from '../adapters/mail-schema.js';
export * from '../modules/account-data/schema.js';
export * from '../modules/accounts/schema.js';
export * from '../modules/auth/schema.js';
export * from '../modules/oidc/schema.js';
export * from '../modules/operator/schema.js';
export * from '../modules/passkeys/schema.js';
export * from '../modules/payment-sandbox/schema.js';
export * from '../modules/payments/schema.js';
export * from '../modules/profile/schema.js';
export * from '../modules/security/schema.js';
export * from '../modules/security-log/schema.js';
export * from '../modules/servers/schema.js';
export * from '../modules/staff/schema.js';
export * from '../modules/telegram/schema.js';
export * from '../modules/two-factor/schema.js';
export * from '../modules/uploads/schema.js';
export * from '../modules/yandex/schema.js';
