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
