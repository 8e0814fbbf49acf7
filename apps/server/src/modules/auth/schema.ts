import { sql } from 'drizzle-orm';
import { bigint, boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
};

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
  ...timestamps,
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  userAgent: text('user_agent').notNull().default(''),
  ipAddress: text('ip_address').notNull().default(''),
  clientOrigin: text('client_origin'),
  rememberMe: boolean('remember_me').notNull().default(false),
  ...timestamps,
  lastActivityAt: timestamp('last_activity_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export type UserRow = typeof users.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
