import { bigint, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * What support did with the operator's tool (migrations/0750_operator.sql): append-only, a
 * trigger refuses UPDATE, DELETE and TRUNCATE. `accountId` has no foreign key: the record
 * outlives the account.
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
});

export type OperatorActionRow = typeof operatorActions.$inferSelect;
