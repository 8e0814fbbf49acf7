import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/database.js';
import { type LedgerEntryInput, lockBalances, postCreditAfter, postLedgerEntry } from './ledger.js';
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

const isRefundReport = (report: ProviderReport) =>
  report.status === 'REFUNDED' || report.status === 'PARTIAL_REFUNDED';

/** Refuses a report that is not about this payment; answers the refunded total it reports. */
function checkReport(payment: PaymentRow, report: ProviderReport): number {
  if (payment.providerPaymentId && payment.providerPaymentId !== report.providerPaymentId) {
    throw new SettlementRefused('payment_mismatch');
  }
  const isMoneyReport = report.status === 'CONFIRMED' || report.status === 'AUTHORIZED';
  if (isMoneyReport && report.amount !== payment.amountKopecks) {
    throw new SettlementRefused('amount_mismatch');
  }
  return isRefundReport(report) ? refundedTotal(payment, report) : 0;
}

/** The top-up's one credit; its key makes a second one a no-op. */
function creditEntry(payment: PaymentRow, now: Date): LedgerEntryInput {
  return {
    userId: payment.userId,
    currency: 'rub',
    amount: payment.amountKopecks,
    kind: 'topUp',
    description: payment.method === 'sbp' ? TOP_UP_BY_SBP : TOP_UP_BY_CARD,
    reference: payment.id,
    idempotencyKey: `payment:${payment.id}:credit`,
    createdAt: now,
  };
}

/**
 * The ledger debit of a refund that brings the payment's refunded total to `total`, under the
 * payment's row lock: the bank's REFUNDED / PARTIAL_REFUNDED (here) and a refund staff start
 * (refund.ts) share the key `payment:<id>:refund:<total>`, and each debits only what takes
 * `payments.refunded_kopecks` up to its total, so one refund is never debited twice, whichever
 * path sees it first. A refund the bank refused is given back (refund.ts), and its total may be
 * reached again later: its key being taken then, the next free `…:<total>:<n>` is used.
 */
export async function postRefundDebit(
  tx: Tx,
  payment: Pick<PaymentRow, 'id' | 'userId'>,
  total: number,
  amount: number,
  now: Date,
): Promise<void> {
  const base = `payment:${payment.id}:refund:${total}`;
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await postLedgerEntry(tx, {
      userId: payment.userId,
      currency: 'rub',
      amount: -amount,
      kind: 'refund',
      description: TOP_UP_REFUND,
      reference: payment.id,
      idempotencyKey: attempt === 1 ? base : `${base}:${attempt}`,
      createdAt: now,
    });
    if (outcome === 'applied') return;
  }
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
  const refundTarget = checkReport(payment, report);
  const isRefund = isRefundReport(report);

  let creditedAt = payment.creditedAt;
  let refunded = payment.refundedKopecks;
  let shortfall = payment.refundShortfallKopecks;

  if ((report.status === 'CONFIRMED' || isRefund) && !creditedAt) {
    await postLedgerEntry(tx, creditEntry(payment, now));
    creditedAt = now;
  }

  if (isRefund && refundTarget > refunded) {
    const owed = refundTarget - refunded;
    const balances = await lockBalances(tx, payment.userId);
    const debit = Math.min(owed, balances?.kopecks ?? 0);
    if (debit > 0) await postRefundDebit(tx, payment, refundTarget, debit, now);
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

/**
 * Applies a provider report to the payment `paymentId`, as `settlePayment` does, in as few round
 * trips as it can: the row is read without a lock, the outcome decided, and the writes (payment
 * first, then the credit's ledger entry and balance) go in one statement whose UPDATE applies only
 * if the row is still as read, which PostgreSQL re-checks under the row's lock. So each report is
 * applied to the row as it is, as under `lockPayment`, and the lock order stays payment, then user.
 * Refunds (they choose their amounts under the user's lock) and a row that changed meanwhile go
 * the locked way. Answers false when there is no such payment.
 */
export async function settleReport(
  db: Db,
  paymentId: string,
  report: ProviderReport,
  now: Date,
  log?: FastifyBaseLogger,
): Promise<boolean> {
  const [payment] = await readPayment(db, paymentId);
  if (!payment) return false;
  if (!isRefundReport(report) && (await settleAsRead(db, payment, report, now))) return true;
  return db.transaction(async (tx) => {
    const locked = await lockPayment(tx, paymentId);
    if (!locked) return false;
    await settlePayment(tx, locked, report, now, log);
    return true;
  });
}

const preparePaymentRead = (db: Db) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.id, sql.placeholder('id')))
    .prepare('payments_settle_read');
const paymentReads = new WeakMap<Db, ReturnType<typeof preparePaymentRead>>();

/**
 * The payment without a lock: one query built once per database and, on PostgreSQL, prepared
 * once per connection (by its name), as it runs for every notification.
 */
function readPayment(db: Db, paymentId: string): Promise<PaymentRow[]> {
  let read = paymentReads.get(db);
  if (!read) {
    read = preparePaymentRead(db);
    paymentReads.set(db, read);
  }
  return read.execute({ id: paymentId });
}

/** A report that is not a refund, applied in one statement if the row is still `payment`. */
async function settleAsRead(
  db: Db,
  payment: PaymentRow,
  report: ProviderReport,
  now: Date,
): Promise<boolean> {
  checkReport(payment, report);
  const credits = report.status === 'CONFIRMED' && !payment.creditedAt;
  // What the decision read and this statement writes. The rest of the row is either fixed at
  // the start (user, amount, method) or neither read nor written here (refunds, checks, page).
  const asRead = and(
    eq(payments.id, payment.id),
    eq(payments.status, payment.status),
    payment.providerPaymentId === null
      ? isNull(payments.providerPaymentId)
      : eq(payments.providerPaymentId, payment.providerPaymentId),
    payment.creditedAt === null
      ? isNull(payments.creditedAt)
      : eq(payments.creditedAt, payment.creditedAt),
  );
  const update = db
    .update(payments)
    .set({
      status: laterStatus(payment.status, report.status),
      providerPaymentId: payment.providerPaymentId ?? report.providerPaymentId,
      creditedAt: credits ? now : payment.creditedAt,
      updatedAt: now,
    })
    .where(asRead)
    .returning({ id: payments.id });
  if (!credits) return (await update).length > 0;
  return (await postCreditAfter(db, update, creditEntry(payment, now))) !== 'unguarded';
}
