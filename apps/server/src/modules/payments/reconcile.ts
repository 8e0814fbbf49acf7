import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../app.js';
import { payments } from './schema.js';
import { lockPayment, settlePayment } from './settlement.js';
import { UNSETTLED_STATUSES } from './statuses.js';

const MINUTE = 60_000;

export interface ReconcileOptions {
  /** Younger payments are left to their notification. */
  olderThanMs?: number;
  /** A payment page lives 24 h (T-Bank's default RedirectDueDate); later we cancel it. */
  abandonAfterMs?: number;
  limit?: number;
}

/**
 * Asks the provider (GetState) about payments still unsettled, and applies what it says exactly
 * as a notification would: a lost CONFIRMED notification still credits, once. Payments left
 * unpaid past their page's lifetime are cancelled at the provider. Safe to run on every process
 * at once: each payment is settled under its row lock.
 */
export async function reconcilePayments(
  deps: AppDeps,
  log: FastifyBaseLogger,
  options: ReconcileOptions = {},
): Promise<{ checked: number; changed: number; failed: number }> {
  const { olderThanMs = 2 * MINUTE, abandonAfterMs = 25 * 60 * MINUTE, limit = 100 } = options;
  const provider = deps.payments.provider;
  if (!provider) return { checked: 0, changed: 0, failed: 0 };
  const now = deps.clock.now();
  const due = await deps.db
    .select({
      id: payments.id,
      providerPaymentId: payments.providerPaymentId,
      createdAt: payments.createdAt,
    })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider.name),
        isNull(payments.creditedAt),
        isNotNull(payments.providerPaymentId),
        inArray(payments.status, [...UNSETTLED_STATUSES]),
        lt(payments.createdAt, new Date(now.getTime() - olderThanMs)),
        or(
          isNull(payments.checkedAt),
          lt(payments.checkedAt, new Date(now.getTime() - olderThanMs)),
        ),
      ),
    )
    .orderBy(sql`${payments.checkedAt} NULLS FIRST`, asc(payments.createdAt))
    .limit(limit);

  let changed = 0;
  let failed = 0;
  for (const candidate of due) {
    const providerPaymentId = candidate.providerPaymentId!;
    try {
      let state = await provider.client.getState({ PaymentId: providerPaymentId });
      const isAbandoned = now.getTime() - candidate.createdAt.getTime() > abandonAfterMs;
      if (isAbandoned && ['NEW', 'FORM_SHOWED'].includes(state.Status)) {
        const cancelled = await provider.client.cancel({ PaymentId: providerPaymentId });
        state = { ...state, Status: cancelled.Status };
      }
      const isChanged = await deps.db.transaction(async (tx) => {
        const payment = await lockPayment(tx, candidate.id);
        if (!payment) return false;
        const settled = await settlePayment(
          tx,
          payment,
          { status: state.Status, amount: state.Amount, providerPaymentId: state.PaymentId },
          deps.clock.now(),
          log,
        );
        await tx
          .update(payments)
          .set({ checkedAt: deps.clock.now() })
          .where(eq(payments.id, payment.id));
        return (
          settled.status !== payment.status ||
          settled.creditedAt?.getTime() !== payment.creditedAt?.getTime() ||
          settled.refundedKopecks !== payment.refundedKopecks
        );
      });
      if (isChanged) changed++;
    } catch (error) {
      failed++;
      log.warn({ err: error, paymentId: candidate.id }, 'payment reconciliation failed');
      await deps.db
        .update(payments)
        .set({ checkedAt: deps.clock.now() })
        .where(eq(payments.id, candidate.id))
        .catch(() => {});
    }
  }
  return { checked: due.length, changed, failed };
}
