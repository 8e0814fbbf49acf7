import type { SecurityEventDetails, SecurityEventKind } from '@portal/contracts/security-log';
import { bigint, date, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

/** migrations/0710_security_log.sql */
export const securityEvents = pgTable('security_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The order of events recorded at one instant. */
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<SecurityEventKind>().notNull(),
  occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
  userAgent: text('user_agent').notNull().default(''),
  ipAddress: text('ip_address').notNull().default(''),
  details: jsonb('details').$type<SecurityEventDetails>().notNull().default({}),
  count: integer('count').notNull().default(1),
  /** Set only on a daily counted row (failed sign-ins): the UTC day it counts. */
  day: date('day'),
});
