import { sql } from 'drizzle-orm';
import { bigint, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

export const ledgerEntries = pgTable('ledger_entries', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  currency: text('currency', { enum: ['rub', 'points'] }).notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  kind: text('kind', {
    enum: ['topUp', 'refund', 'purchase', 'renewal', 'cashback', 'adjustment'],
  }).notNull(),
  description: text('description').notNull(),
  reference: text('reference'),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const payments = pgTable('payments', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  method: text('method', { enum: ['card', 'sbp'] }).notNull(),
  amountKopecks: bigint('amount_kopecks', { mode: 'number' }).notNull(),
  provider: text('provider', { enum: ['tbank', 'sandbox'] }).notNull(),
  status: text('status').notNull().default('NEW'),
  providerPaymentId: text('provider_payment_id'),
  redirectUrl: text('redirect_url'),
  idempotencyKey: text('idempotency_key'),
  creditedAt: timestamp('credited_at', { withTimezone: true }),
  refundedKopecks: bigint('refunded_kopecks', { mode: 'number' }).notNull().default(0),
  refundShortfallKopecks: bigint('refund_shortfall_kopecks', { mode: 'number' })
    .notNull()
    .default(0),
  checkedAt: timestamp('checked_at', { withTimezone: true }),
  /** The RedirectDueDate sent with Init: past it the page or SBP link can no longer be paid. */
  expiresAt: timestamp('expires_at', { withTimezone: true })
    .notNull()
    .default(sql`now() + interval '24 hours'`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
