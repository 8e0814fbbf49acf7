import { jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------- migrations/0780_oidc.sql

/** Every model oidc-provider stores, one row each (adapter.ts). */
export const oidcModels = pgTable(
  'oidc_models',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.kind, table.id] })],
);

/** The provider's signing keys, sealed with SECRET_KEY (signing-keys.ts). */
export const oidcSigningKeys = pgTable('oidc_signing_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  sealedJwk: text('sealed_jwk').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});
