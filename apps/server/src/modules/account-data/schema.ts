import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

/** migrations/0740_account_deletion.sql: a deletion the owner asked for, until it is erased. */
export const accountDeletions = pgTable('account_deletions', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
  /** SHA-256 of the cancel link's token, hex. */
  tokenHash: text('token_hash').notNull().unique(),
  /** Set when cancelled; the row then waits only to tell the owner after a sign-in. */
  cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  cancelledBy: text('cancelled_by').$type<DeletionCancelledBy>(),
});

export type DeletionCancelledBy = 'sign_in' | 'letter';
