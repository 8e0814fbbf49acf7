import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { securityEvents } from '../security-log/schema.js';

/** migrations/0210_security.sql */
export const passwordResetLogoutGrants = pgTable('password_reset_logout_grants', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** migrations/0730_sign_in_alerts.sql: the «Это был не я» links that took effect. */
export const notMeUses = pgTable('not_me_uses', {
  securityEventId: uuid('security_event_id')
    .primaryKey()
    .references(() => securityEvents.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
});
