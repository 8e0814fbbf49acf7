// The payments module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export {
  hasTopUpInProgress,
  ledgerPageOf,
  paymentPageOf,
  type RowKey,
} from './account-reads.js';
export type { Currency, LedgerKind } from './ledger.js';
export { InsufficientFundsError, lockBalances, postLedgerEntry } from './ledger.js';
export { findPayment, recentLedgerEntries, recentPayments } from './operator-reads.js';
export { type PaymentStats, paymentStats } from './payment-stats.js';
export { choosePaymentProvider } from './provider-choice.js';
export { receiptsOfPayment, receiptView } from './receipts.js';
export type { ReconcileCounts, Reconciliation, SinglePaymentOutcome } from './reconcile.js';
export {
  type RefundOutcome,
  type RefundPaymentInput,
  type Refunds,
  refundableKopecks,
} from './refund.js';
export type { LedgerEntryRow, PaymentRow } from './schema.js';
export { UNSETTLED_STATUSES } from './statuses.js';
