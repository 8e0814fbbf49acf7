import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { sessions } from '../auth/schema.js';

/** migrations/0320_email_change.sql */
export const emailChanges = pgTable('email_changes', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sessionId: uuid('session_id')
    .notNull()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  currentConfirmedAt: timestamp('current_confirmed_at', { withTimezone: true }).notNull(),
});
