// The payments module's public entry: what other modules may use of it. Its plugin
// (plugin.ts) and its tables (schema.ts) are reached directly.

export {
  hasTopUpInProgress,
  ledgerPageOf,
  paymentPageOf,
  type RowKey,
} from './account-reads.js';
export { lockBalances, postLedgerEntry } from './ledger.js';
export { choosePaymentProvider } from './provider-choice.js';
export {
  type RefundOutcome,
  type RefundPaymentInput,
  refundableKopecks,
  refundPayment,
} from './refund.js';
export { UNSETTLED_STATUSES } from './statuses.js';
