import { sql } from 'drizzle-orm';
import { jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

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

/**
 * The provider's signing keys, sealed with SECRET_KEY (signing-keys.ts); `signsFrom` and
 * `sealedWith` from migrations/0785_oidc_key_rotation.sql.
 */
export const oidcSigningKeys = pgTable('oidc_signing_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  sealedJwk: text('sealed_jwk').notNull(),
  /** The secret box's purpose the JWK is sealed under (signing-keys.ts `SEAL_PURPOSE`). */
  sealedWith: text('sealed_with').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  /** When it starts signing: later than `createdAt` for a key a rotation brought in. */
  signsFrom: timestamp('signs_from', { withTimezone: true }).notNull(),
  /** When it stops signing (the next key's `signsFrom`); published until its tokens expire. */
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});

// ---------------------------------------------------------------- migrations/0795_oidc_site_sign_ins.sql

/** A site's sign-in through the provider, one per grant, and the portal session it came from. */
export const oidcSiteSignIns = pgTable('oidc_site_sign_ins', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  grantId: text('grant_id').notNull().unique(),
  clientId: text('client_id').notNull(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  portalSessionId: uuid('portal_session_id').notNull(),
  /** The library's session (`uid`, stable for its life) and the client's `sid` in it. */
  providerSessionUid: text('provider_session_uid').notNull(),
  sid: text('sid').notNull(),
  userAgent: text('user_agent').notNull().default(''),
  ipAddress: text('ip_address').notNull().default(''),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
});

export type SiteSignInRow = typeof oidcSiteSignIns.$inferSelect;
