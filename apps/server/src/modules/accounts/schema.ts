import { sql } from 'drizzle-orm';
import { bigint, boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

// ---------------------------------------------------------------- migrations/0001_core.sql

/**
 * The accounts themselves. Only ./repository.ts queries this table; other modules' schemas import
 * it solely to declare their foreign keys.
 */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  email: text('email').notNull(),
  emailKey: text('email_key').notNull().unique(),
  userName: text('user_name').notNull(),
  userNameKey: text('user_name_key').notNull().unique(),
  passwordHash: text('password_hash'),
  firstName: text('first_name').notNull().default(''),
  middleName: text('middle_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  phone: text('phone'),
  avatarUrl: text('avatar_url'),
  yandexId: text('yandex_id').unique(),
  telegramId: bigint('telegram_id', { mode: 'number' }).unique(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  balanceKopecks: bigint('balance_kopecks', { mode: 'number' }).notNull().default(0),
  balancePoints: bigint('balance_points', { mode: 'number' }).notNull().default(0),
  /** Set by support (`npm run admin -- block`): no sign-in by any way (migrations/0750_operator.sql). */
  blockedAt: timestamp('blocked_at', { withTimezone: true }),
  blockedReason: text('blocked_reason'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  // migrations/0730_sign_in_alerts.sql
  /** The owner's switch: a letter after each sign-in from a new device. */
  signInAlertsByEmail: boolean('sign_in_alerts_by_email').notNull().default(true),
  /** The password is one of the common ones (computed when set and at each password sign-in). */
  isPasswordCommon: boolean('is_password_common').notNull().default(false),
  /** migrations/0740_account_deletion.sql: 'deleted' is an erased account's tombstone. */
  status: text('status').$type<'active' | 'deleted'>().notNull().default('active'),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

export type UserRow = typeof users.$inferSelect;
