import { sql } from 'drizzle-orm';
import { bigint, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** The outbox of migrations/0100_auth.sql and 0640_mail_expiry.sql; without SMTP it is also the dev mailbox. */
export const mailOutbox = pgTable('mail_outbox', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body').notNull(),
  status: text('status', { enum: ['pending', 'sending', 'sent', 'failed', 'expired'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  lastError: text('last_error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  /** Not sent after this (migrations/0640_mail_expiry.sql); NULL: until the sender gives up. */
  expiresAt: timestamp('expires_at', { withTimezone: true }),
  /**
   * `letter`, or another kind of item delivered by the same retried loop (migrations/0795):
   * its `payload` is handed to the deliverer registered for the kind (mail.ts `deliverKind`).
   */
  kind: text('kind').notNull().default('letter'),
  payload: jsonb('payload').$type<Record<string, unknown>>(),
});

export type MailOutboxRow = typeof mailOutbox.$inferSelect;
