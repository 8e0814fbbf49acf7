import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The sandbox provider's own book of payments (migrations 0410, 0600, 0650 and 0760). */
export const sandboxPayments = pgTable('sandbox_payments', {
  /** The PaymentId of the protocol: digits, like T-Bank's, and sequential, so never in a link. */
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** The only key to the checkout page: 32 random bytes, base64url. */
  checkoutToken: text('checkout_token').notNull().unique(),
  terminalKey: text('terminal_key').notNull(),
  orderId: text('order_id').notNull(),
  amountKopecks: bigint('amount_kopecks', { mode: 'number' }).notNull(),
  description: text('description').notNull().default(''),
  status: text('status').notNull().default('NEW'),
  currentAmountKopecks: bigint('current_amount_kopecks', { mode: 'number' }).notNull(),
  notificationUrl: text('notification_url'),
  successUrl: text('success_url'),
  failUrl: text('fail_url'),
  isNotified: boolean('is_notified').notNull().default(false),
  /** The receipt Init brought (migration 0760), printed once the payment is confirmed. */
  receipt: jsonb('receipt'),
  /** Past it a waiting payment is DEADLINE_EXPIRED, as at T-Bank. */
  redirectDueDate: timestamp('redirect_due_date', { withTimezone: true })
    .notNull()
    .default(sql`now() + interval '24 hours'`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SandboxPaymentRow = typeof sandboxPayments.$inferSelect;
