/**
 * What support reads of the wallet with the operator's tool (modules/operator): a payment by its
 * id or the provider's, the account's latest payments and ledger entries; and what the
 * operator's Prometheus reads of the payments at scrape time (modules/metrics). Plain reads, no
 * locks.
 */
import { and, count, desc, eq, inArray, isNull, min, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { type LedgerEntryRow, ledgerEntries, type PaymentRow, payments } from './schema.js';
import { UNSETTLED_STATUSES } from './statuses.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The payment with our id (the provider's OrderId) or the provider's PaymentId. */
export async function findPayment(executor: Executor, id: string): Promise<PaymentRow | undefined> {
  const text = id.trim();
  const [row] = await executor
    .select()
    .from(payments)
    .where(
      UUID.test(text)
        ? or(eq(payments.id, text.toLowerCase()), eq(payments.providerPaymentId, text))
        : eq(payments.providerPaymentId, text),
    )
    .limit(1);
  return row;
}

/** The account's latest payments, newest first. */
export function recentPayments(
  executor: Executor,
  userId: string,
  limit: number,
): Promise<PaymentRow[]> {
  return executor
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

/** The account's latest ledger entries, newest first. */
export function recentLedgerEntries(
  executor: Executor,
  userId: string,
  limit: number,
): Promise<LedgerEntryRow[]> {
  return executor
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(limit);
}

export interface PaymentStats {
  byStatus: Record<string, number>;
  /** How long the oldest payment neither paid nor finished has waited; 0 when none. */
  oldestUnsettledAgeSeconds: number;
}

/**
 * Payments by status (one pass over the table; payments are few next to requests) and the age of
 * the oldest unsettled one (the `payments_awaiting_idx` partial index).
 */
export async function paymentStats(db: Executor, now: Date): Promise<PaymentStats> {
  const [rows, [oldest]] = await Promise.all([
    db.select({ status: payments.status, count: count() }).from(payments).groupBy(payments.status),
    db
      .select({ at: min(payments.createdAt) })
      .from(payments)
      .where(and(isNull(payments.creditedAt), inArray(payments.status, [...UNSETTLED_STATUSES]))),
  ]);
  const at = oldest?.at;
  return {
    byStatus: Object.fromEntries(rows.map((row) => [row.status, row.count])),
    oldestUnsettledAgeSeconds: at ? Math.max(0, (now.getTime() - at.getTime()) / 1000) : 0,
  };
}
