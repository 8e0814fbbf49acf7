import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';
import { sessions } from '../auth/schema.js';

/**
 * Staff roles (migrations/0800_staff.sql): one live row per account (`revokedAt` null); a change
 * of role revokes the live row and adds one, so every grant stays.
 */
export const staffRoles = pgTable('staff_roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').$type<'support' | 'finance' | 'admin'>().notNull(),
  grantedBy: text('granted_by').notNull(),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull(),
  reason: text('reason').notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedBy: text('revoked_by'),
  revokeReason: text('revoke_reason'),
});

export type StaffRoleRow = typeof staffRoles.$inferSelect;

/**
 * When a session last proved its staff member by a passkey or the authenticator. A password or a
 * mailed code never writes here (sessions.proven_at is the customer's proof).
 */
export const staffProofs = pgTable('staff_proofs', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  provenAt: timestamp('proven_at', { withTimezone: true }).notNull(),
});
