import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/database.js';
import { lockBalances, postLedgerEntry } from './ledger.js';
import { TOP_UP_BY_CARD, TOP_UP_BY_SBP, TOP_UP_REFUND } from './messages.js';
import { type PaymentRow, payments } from './schema.js';
import { laterStatus } from './statuses.js';

/** What the provider says about a payment, from a notification or from GetState. */
export interface ProviderReport {
  status: string;
  /** Kopecks, as the provider sent them. */
  amount: number;
  providerPaymentId: string;
}

export type SettlementRefusal = 'amount_mismatch' | 'payment_mismatch';

export class SettlementRefused extends Error {
  constructor(readonly reason: SettlementRefusal) {
    super(reason);
  }
}

/** Locks the payment row until the transaction ends: reports about one payment apply one by one. */
export async function lockPayment(tx: Tx, paymentId: string): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  return row ?? null;
}

/**
 * Total refunded according to a refund report. REFUNDED means all of it. For PARTIAL_REFUNDED
 * we read `Amount` as what remains paid after the refund, as Cancel's `NewAmount` does; the
 * provider documentation does not say so outright
 * (docs/decisions/0017-refunds-never-below-zero.md).
 */
function refundedTotal(payment: PaymentRow, report: ProviderReport): number {
  if (report.status === 'REFUNDED') return payment.amountKopecks;
  if (!Number.isSafeInteger(report.amount) || report.amount <= 0) {
    throw new SettlementRefused('amount_mismatch');
  }
  if (report.amount >= payment.amountKopecks) throw new SettlementRefused('amount_mismatch');
  return payment.amountKopecks - report.amount;
}

/**
 * Applies a provider report to a locked payment: the only way money reaches a balance.
 * CONFIRMED credits once (the payment row lock plus the ledger's unique key); a refund debits
 * the newly refunded part, never below zero: what the user already spent is recorded as a
 * shortfall for support instead. A refund report for a payment we never saw confirmed credits
 * first, since a refund proves the money was paid; so reports may arrive in any order.
 */
export async function settlePayment(
  tx: Tx,
  payment: PaymentRow,
  report: ProviderReport,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<PaymentRow> {
  if (payment.providerPaymentId && payment.providerPaymentId !== report.providerPaymentId) {
    throw new SettlementRefused('payment_mismatch');
  }
  const isMoneyReport = report.status === 'CONFIRMED' || report.status === 'AUTHORIZED';
  if (isMoneyReport && report.amount !== payment.amountKopecks) {
    throw new SettlementRefused('amount_mismatch');
  }
  const isRefund = report.status === 'REFUNDED' || report.status === 'PARTIAL_REFUNDED';
  const refundTarget = isRefund ? refundedTotal(payment, report) : 0;

  let creditedAt = payment.creditedAt;
  let refunded = payment.refundedKopecks;
  let shortfall = payment.refundShortfallKopecks;

  if ((report.status === 'CONFIRMED' || isRefund) && !creditedAt) {
    await postLedgerEntry(tx, {
      userId: payment.userId,
      currency: 'rub',
      amount: payment.amountKopecks,
      kind: 'topUp',
      description: payment.method === 'sbp' ? TOP_UP_BY_SBP : TOP_UP_BY_CARD,
      reference: payment.id,
      idempotencyKey: `payment:${payment.id}:credit`,
      createdAt: now,
    });
    creditedAt = now;
  }

  if (isRefund && refundTarget > refunded) {
    const owed = refundTarget - refunded;
    const balances = await lockBalances(tx, payment.userId);
    const debit = Math.min(owed, balances?.kopecks ?? 0);
    if (debit > 0) {
      await postLedgerEntry(tx, {
        userId: payment.userId,
        currency: 'rub',
        amount: -debit,
        kind: 'refund',
        description: TOP_UP_REFUND,
        reference: payment.id,
        idempotencyKey: `payment:${payment.id}:refund:${refundTarget}`,
        createdAt: now,
      });
    }
    if (debit < owed) {
      log?.warn(
        { paymentId: payment.id, userId: payment.userId, shortfall: owed - debit },
        'refund exceeds the balance: the rest is recorded as a shortfall',
      );
    }
    shortfall += owed - debit;
    refunded = refundTarget;
  }

  const [updated] = await tx
    .update(payments)
    .set({
      status: laterStatus(payment.status, report.status),
      providerPaymentId: payment.providerPaymentId ?? report.providerPaymentId,
      creditedAt,
      refundedKopecks: refunded,
      refundShortfallKopecks: shortfall,
      updatedAt: now,
    })
    .where(eq(payments.id, payment.id))
    .returning();
  return updated!;
}
