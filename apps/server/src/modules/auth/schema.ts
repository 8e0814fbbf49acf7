import type { Amr, SignInMethod } from '@portal/contracts/security-log';
import { sql } from 'drizzle-orm';
import {
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
};

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  userAgent: text('user_agent').notNull().default(''),
  ipAddress: text('ip_address').notNull().default(''),
  clientOrigin: text('client_origin'),
  rememberMe: boolean('remember_me').notNull().default(false),
  ...timestamps,
  lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  /** The last fresh proof of the owner (modules/auth/recent-proof.ts); null: never. */
  provenAt: timestamp('proven_at', { withTimezone: true }),
  /**
   * How it signed in, written by the sign-in policy (migrations/0815_session_sign_in.sql): the way
   * in and its `amr`. Null for a hand-off to a sibling site, which is no sign-in of its own.
   */
  signInMethod: text('sign_in_method').$type<SignInMethod>(),
  amr: text('amr').array().$type<Amr[]>(),
});

export type SessionRow = typeof sessions.$inferSelect;

// ---------------------------------------------------------------- migrations/0100_auth.sql

export const oneTimeCodes = pgTable('one_time_codes', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  purpose: text('purpose').notNull(),
  subject: text('subject').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  payload: jsonb('payload'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  sendCount: integer('send_count').notNull().default(1),
  hourStartedAt: timestamp('hour_started_at', { withTimezone: true }).notNull(),
  hourSends: integer('hour_sends').notNull().default(1),
  ...timestamps,
});

export const loginThrottles = pgTable('login_throttles', {
  subject: text('subject').primaryKey(),
  failures: integer('failures').notNull().default(0),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

export const handOffCodes = pgTable('hand_off_codes', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  codeHash: text('code_hash').notNull().unique(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  origin: text('origin').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
  sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'set null' }),
  ...timestamps,
});

export type OneTimeCodeRow = typeof oneTimeCodes.$inferSelect;

// ---------------------------------------------------------------- migrations/0620_sibling_users.sql

/** Sibling sites a user has used: written when the sibling redeems a hand-off code. */
export const siblingUsers = pgTable(
  'sibling_users',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sibling: text('sibling').notNull(),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.sibling] })],
);
