import { sql } from 'drizzle-orm';
import { bigint, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

export const ledgerEntries = pgTable('ledger_entries', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  currency: text('currency', { enum: ['rub', 'points'] }).notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  kind: text('kind', {
    enum: ['topUp', 'refund', 'purchase', 'renewal', 'cashback', 'adjustment', 'correction'],
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

/** Fiscal documents the provider reported (migration 0760); they never move money. */
export const receipts = pgTable('receipts', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  paymentId: uuid('payment_id')
    .notNull()
    .references(() => payments.id, { onDelete: 'cascade' }),
  type: text('type', { enum: ['income', 'refund'] }).notNull(),
  amountKopecks: bigint('amount_kopecks', { mode: 'number' }).notNull(),
  itemName: text('item_name').notNull(),
  vat: text('vat').notNull(),
  fiscalNumber: bigint('fiscal_number', { mode: 'number' }),
  shiftNumber: bigint('shift_number', { mode: 'number' }),
  fnNumber: text('fn_number').notNull(),
  ecrRegNumber: text('ecr_reg_number').notNull().default(''),
  fiscalDocumentNumber: bigint('fiscal_document_number', { mode: 'number' }).notNull(),
  fiscalDocumentAttribute: bigint('fiscal_document_attribute', { mode: 'number' }).notNull(),
  receiptDatetime: timestamp('receipt_datetime', { withTimezone: true }).notNull(),
  raw: jsonb('raw').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Refunds started by staff (refund.ts, migration 0760). */
export const paymentRefunds = pgTable('payment_refunds', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  paymentId: uuid('payment_id')
    .notNull()
    .references(() => payments.id, { onDelete: 'cascade' }),
  amountKopecks: bigint('amount_kopecks', { mode: 'number' }).notNull(),
  refundedTotalKopecks: bigint('refunded_total_kopecks', { mode: 'number' }).notNull(),
  status: text('status', { enum: ['pending', 'completed', 'refused', 'unknown'] })
    .notNull()
    .default('pending'),
  reason: text('reason').notNull(),
  operator: text('operator').notNull(),
  idempotencyKey: text('idempotency_key').unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type ReceiptRow = typeof receipts.$inferSelect;
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
