import { PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { Mailer } from '../../adapters/mail.js';
import { PaymentProviderError } from '../../adapters/tbank/client.js';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/database.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import { lockBalances, postLedgerEntry } from './ledger.js';
import { refundLetter } from './letters.js';
import {
  REFUND_AMOUNT_INVALID,
  REFUND_KEY_REUSED,
  REFUND_NO_PROVIDER,
  REFUND_NOT_PAID,
  REFUND_NOTHING_LEFT,
  REFUND_OTHER_PROVIDER,
  REFUND_PROVIDER_REFUSED,
  REFUND_RETURNED,
  REFUND_TOO_LARGE,
} from './messages.js';
import type { PaymentProvider } from './provider.js';
import { walletReceipt } from './receipt.js';
import { type PaymentRefundRow, type PaymentRow, paymentRefunds, payments } from './schema.js';
import { lockPayment, postRefundDebit } from './settlement.js';
import { laterStatus } from './statuses.js';

export interface RefundPaymentInput {
  /** The portal's payment id (the OrderId sent to the provider). */
  paymentId: string;
  /** Kopecks; without it, everything still refundable (see `refundableKopecks`). */
  amountKopecks?: number | undefined;
  /** Why, for the record (payment_refunds.reason). */
  reason: string;
  /** Who, for the record: the staff member's login or name. */
  operator: string;
  /** With it, a repeat answers the first refund and refunds nothing more. */
  idempotencyKey?: string | undefined;
  /**
   * Runs in the debit's transaction, under the payment's and the user's locks, once the amount is
   * chosen and allowed and before anything is written; what it throws rolls the refund back and
   * is thrown on. Staff money holds a refund above its approval threshold with it, and claims an
   * approved request in the very transaction of the debit (modules/operator/money-service.ts).
   */
  beforeDebit?: ((tx: Tx, amountKopecks: number) => Promise<void>) | undefined;
}

export interface RefundOutcome {
  refundId: string;
  paymentId: string;
  amountKopecks: number;
  /** The payment's refunded total once this refund is counted. */
  refundedTotalKopecks: number;
  /**
   * `completed`: the provider refunded. `unknown`: the provider did not answer; the money stays
   * debited (it may have been refunded) and support checks the payment at the bank.
   */
  status: 'completed' | 'unknown';
}

/**
 * What may still be refunded of a top-up: the part of it not refunded yet, but never more than
 * the rouble balance, since money already spent on services is not paid out (points never are).
 * docs/decisions/0033-refunds-and-order-cancel.md.
 */
export function refundableKopecks(
  payment: Pick<PaymentRow, 'amountKopecks' | 'refundedKopecks'>,
  balanceKopecks: number,
): number {
  return Math.max(0, Math.min(payment.amountKopecks - payment.refundedKopecks, balanceKopecks));
}

const REFUNDABLE_STATUSES = new Set(['CONFIRMED', 'PARTIAL_REFUNDED']);

const outcomeOf = (row: PaymentRefundRow): RefundOutcome => ({
  refundId: row.id,
  paymentId: row.paymentId,
  amountKopecks: row.amountKopecks,
  refundedTotalKopecks: row.refundedTotalKopecks,
  status: row.status === 'completed' ? 'completed' : 'unknown',
});

export interface RefundDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** The customer's letter is written to the outbox in the refund's last transaction. */
  mail: Mailer;
  /** Null when no terminal is configured: a paid top-up is then refused as REFUND_NO_PROVIDER. */
  provider: PaymentProvider | null;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

export class Refunds {
  constructor(private readonly deps: RefundDeps) {}

  /**
   * Refunds a paid top-up, whole or in part, for staff (the operator CLI):
   *
   * 1. One transaction under the payment's row lock, then the user's balance lock: the amount is
   *    checked against `refundableKopecks`, the refund is recorded (`pending`) and debited from the
   *    rouble balance with the ledger key the bank's refund notification would use
   *    (`payment:<id>:refund:<total>`), and `payments.refunded_kopecks` moves to that total. So 100
   *    parallel calls take at most what is refundable, and when the provider's REFUNDED /
   *    PARTIAL_REFUNDED arrives, settlement finds it already counted and debits nothing.
   * 2. The provider's `Cancel` with `Amount` and the refund receipt (its total = the amount), out of
   *    any transaction.
   * 3. Accepted: the refund is `completed`, the payment takes the answered status, and the letter to
   *    the customer is written in that same transaction. Refused by the provider: the debit is given
   *    back in one transaction (an adjustment, and the refunded total lowered) and the call throws.
   *    No answer at all: the refund stays debited as `unknown` for support: the bank may have
   *    refunded, and giving the money back could pay it out twice.
   */
  async refund(input: RefundPaymentInput): Promise<RefundOutcome> {
    const { deps } = this;
    const { log } = deps;
    const provider = deps.provider;
    if (
      input.amountKopecks !== undefined &&
      (!Number.isSafeInteger(input.amountKopecks) || input.amountKopecks <= 0)
    ) {
      throw invalidInput(REFUND_AMOUNT_INVALID);
    }
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (!UUID.test(input.paymentId)) throw notFound(PAYMENT_NOT_FOUND);

    const started = await deps.db.transaction(async (tx) => {
      const payment = await lockPayment(tx, input.paymentId);
      if (!payment) throw notFound(PAYMENT_NOT_FOUND);
      if (input.idempotencyKey) {
        const [first] = await tx
          .select()
          .from(paymentRefunds)
          .where(eq(paymentRefunds.idempotencyKey, input.idempotencyKey));
        if (first) {
          const isSame =
            first.paymentId === payment.id &&
            (input.amountKopecks === undefined || input.amountKopecks === first.amountKopecks);
          if (!isSame) throw new AppError('conflict', REFUND_KEY_REUSED);
          return { repeat: first };
        }
      }
      if (!payment.creditedAt || !REFUNDABLE_STATUSES.has(payment.status)) {
        throw new AppError('conflict', REFUND_NOT_PAID);
      }
      if (!provider) throw new AppError('unavailable', REFUND_NO_PROVIDER);
      if (!payment.providerPaymentId || payment.provider !== provider.name) {
        throw new AppError('conflict', REFUND_OTHER_PROVIDER);
      }
      const balances = await lockBalances(tx, payment.userId);
      const available = refundableKopecks(payment, balances?.kopecks ?? 0);
      if (available === 0) throw new AppError('conflict', REFUND_NOTHING_LEFT);
      const amount = input.amountKopecks ?? available;
      if (amount > available) throw new AppError('conflict', REFUND_TOO_LARGE(available));
      await input.beforeDebit?.(tx, amount);
      const total = payment.refundedKopecks + amount;
      const now = deps.clock.now();
      const [created] = await tx
        .insert(paymentRefunds)
        .values({
          paymentId: payment.id,
          amountKopecks: amount,
          refundedTotalKopecks: total,
          reason: input.reason,
          operator: input.operator,
          idempotencyKey: input.idempotencyKey ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await postRefundDebit(tx, payment, total, amount, now);
      await tx
        .update(payments)
        .set({ refundedKopecks: total, updatedAt: now })
        .where(eq(payments.id, payment.id));
      return { refund: created!, payment };
    });
    if ('repeat' in started) return outcomeOf(started.repeat!);

    const { refund, payment } = started;
    const user = await findUserById(deps.db, payment.userId);
    let answer: Awaited<ReturnType<NonNullable<typeof provider>['client']['cancel']>>;
    try {
      answer = await provider!.client.cancel({
        PaymentId: payment.providerPaymentId!,
        Amount: refund.amountKopecks,
        Receipt: walletReceipt(deps.config, user?.email ?? '', refund.amountKopecks),
      });
    } catch (error) {
      if (error instanceof PaymentProviderError && error.providerCode !== undefined) {
        log.warn(
          { err: error, paymentId: payment.id, refundId: refund.id, code: error.providerCode },
          'the provider refused a refund: the debit is given back',
        );
        await giveBack(deps, refund);
        throw new AppError('conflict', REFUND_PROVIDER_REFUSED);
      }
      log.error(
        { err: error, paymentId: payment.id, refundId: refund.id },
        'refund: no answer from the provider; the debit stays, check the payment at the bank',
      );
      await deps.db
        .update(paymentRefunds)
        .set({ status: 'unknown', updatedAt: deps.clock.now() })
        .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, 'pending')));
      return { ...outcomeOf(refund), status: 'unknown' };
    }

    await deps.db.transaction(async (tx) => {
      const locked = await lockPayment(tx, payment.id);
      const now = deps.clock.now();
      await tx
        .update(paymentRefunds)
        .set({ status: 'completed', updatedAt: now })
        .where(eq(paymentRefunds.id, refund.id));
      if (locked) {
        await tx
          .update(payments)
          .set({ status: laterStatus(locked.status, answer.Status), updatedAt: now })
          .where(eq(payments.id, payment.id));
      }
      if (user) {
        await deps.mail.enqueue(
          refundLetter(deps.config, {
            to: user.email,
            firstName: user.firstName,
            amountKopecks: refund.amountKopecks,
            paidAt: payment.createdAt,
          }),
          tx,
        );
      }
    });
    return { ...outcomeOf(refund), status: 'completed' };
  }
}

/**
 * The provider refused: the refund never happened, so its debit goes back to the balance and the
 * payment's refunded total down by its amount, in one transaction under both locks.
 */
async function giveBack(deps: RefundDeps, refund: PaymentRefundRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const payment = await lockPayment(tx, refund.paymentId);
    if (!payment) return;
    const [marked] = await tx
      .update(paymentRefunds)
      .set({ status: 'refused', updatedAt: deps.clock.now() })
      .where(and(eq(paymentRefunds.id, refund.id), eq(paymentRefunds.status, 'pending')))
      .returning({ id: paymentRefunds.id });
    if (!marked) return;
    await lockBalances(tx, payment.userId);
    const now = deps.clock.now();
    await postLedgerEntry(tx, {
      userId: payment.userId,
      currency: 'rub',
      amount: refund.amountKopecks,
      kind: 'adjustment',
      description: REFUND_RETURNED,
      reference: payment.id,
      idempotencyKey: `payment-refund:${refund.id}:returned`,
      createdAt: now,
    });
    await tx
      .update(payments)
      .set({
        refundedKopecks: sql`${payments.refundedKopecks} - ${refund.amountKopecks}`,
        updatedAt: now,
      })
      .where(eq(payments.id, payment.id));
  });
}
