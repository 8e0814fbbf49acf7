import {
  bigint,
  boolean,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { payments } from '../payments/schema.js';

/**
 * What support did, with the operator's tool or on the staff pages (migrations/0750_operator.sql,
 * 0800_staff.sql): the one audit, append-only, a trigger refuses UPDATE, DELETE and TRUNCATE.
 * `accountId` has no foreign key: the record outlives the account. `operator` is who acted (the
 * member's username, or the command line's `--operator`); `actorUserId` and `role` are null for
 * the command line; `command` is the kind of action (`block`, `account_opened`, `role_granted`…).
 */
export const operatorActions = pgTable('operator_actions', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  operator: text('operator').notNull(),
  command: text('command').notNull(),
  accountId: uuid('account_id'),
  details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
  reason: text('reason'),
  actorUserId: uuid('actor_user_id'),
  role: text('role').$type<'support' | 'finance' | 'admin'>(),
  ip: text('ip'),
});

export type OperatorActionRow = typeof operatorActions.$inferSelect;

/**
 * How the portal runs, as it said when it last started listening (portal-runtime.ts,
 * migrations/0770_portal_runtime.sql). One row.
 */
export const portalRuntime = pgTable('portal_runtime', {
  id: smallint('id').primaryKey().default(1),
  usesRedis: boolean('uses_redis').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
});

/**
 * Staff money waiting for a second person (migrations/0810_money_requests.sql): a refund or
 * correction above STAFF_APPROVAL_ROUBLES, until another finance member approves or declines it
 * (money-service.ts). Queries in money-requests.ts.
 */
export const moneyRequests = pgTable('money_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  kind: text('kind', { enum: ['credit', 'debit', 'refund'] }).notNull(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'cascade' }),
  currency: text('currency', { enum: ['rub', 'points'] }).notNull(),
  /** Kopecks or whole points. */
  amount: bigint('amount', { mode: 'number' }).notNull(),
  reason: text('reason').notNull(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  requestedBy: text('requested_by').notNull(),
  requestedByUserId: uuid('requested_by_user_id'),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  /** As stored: a `pending` row past `expiresAt` is read as `expired` (money-requests.ts). */
  status: text('status', { enum: ['pending', 'approved', 'declined', 'expired'] })
    .notNull()
    .default('pending'),
  decidedBy: text('decided_by'),
  decidedByUserId: uuid('decided_by_user_id'),
  decidedAt: timestamp('decided_at', { withTimezone: true }),
  decisionReason: text('decision_reason'),
});

export type MoneyRequestRow = typeof moneyRequests.$inferSelect;
