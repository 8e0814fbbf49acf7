import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

/** migrations/0610_yandex_flows.sql */
export const yandexFlows = pgTable('yandex_flows', {
  flowHash: text('flow_hash').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  codeHash: text('code_hash').unique(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  exchangedAt: timestamp('exchanged_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
