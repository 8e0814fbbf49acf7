import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { PaymentProviderError } from '../../adapters/tbank/client.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import type { PaymentProvider } from './provider.js';
import { payments } from './schema.js';
import { lockPayment, type ProviderReport, settlePayment } from './settlement.js';
import { statusRank, UNSETTLED_STATUSES, WAITING_STATUSES } from './statuses.js';

const MINUTE = 60_000;

export interface ReconcileOptions {
  /** Younger payments are left to their notification. */
  olderThanMs?: number;
  /**
   * A payment still waiting this long after its page expired is cancelled at the provider. The
   * provider normally expires it itself (DEADLINE_EXPIRED); the margin leaves it the time to.
   */
  expiryMarginMs?: number;
  limit?: number;
}

/** What one run did; every payment it looked at counts in `checked`. */
export type ReconcileCounts = {
  checked: number;
  /** Payments whose status, credit or refund changed (the abandoned ones included). */
  changed: number;
  /** Payments for which asking the provider or applying its answer failed. */
  failed: number;
  /**
   * Payments closed because nobody can pay them any more: a start interrupted before the customer
   * got the page (now INIT_FAILED), or a page left unpaid past its lifetime (cancelled).
   */
  abandoned: number;
};

/**
 * How long after its start a top-up that has not reached the customer is given up. A live
 * request waits for Init at most TBANK_TIMEOUT_MS and then records the failure itself, so a row
 * still without a page much later belongs to a process that stopped. Twice the timeout plus 10 s
 * covers the database writes around Init (each within the 4 s query deadline on PostgreSQL) and
 * clocks of different processes. Should a stalled process wake up later all the same, top-up.ts
 * refuses to revive the given-up row.
 */
export function startGiveUpAfterMs(config: Pick<Config, 'TBANK_TIMEOUT_MS'>): number {
  return 2 * config.TBANK_TIMEOUT_MS + 10_000;
}

export interface ReconcileDeps {
  config: Pick<Config, 'TBANK_TIMEOUT_MS'>;
  db: Db;
  clock: Clock;
  /** Null when no terminal is configured: nothing is asked, nothing changes. */
  provider: PaymentProvider | null;
}

type Provider = PaymentProvider;

const isWaiting = (status: string) => (WAITING_STATUSES as readonly string[]).includes(status);
const isUnsettled = (status: string) => (UNSETTLED_STATUSES as readonly string[]).includes(status);

export class Reconciliation {
  constructor(private readonly deps: ReconcileDeps) {}

  /**
   * Asks the provider about payments still unsettled, and applies what it says exactly as a
   * notification would: a lost CONFIRMED notification still credits, once. Payments left unpaid past
   * their page's lifetime are cancelled at the provider. Top-ups whose start was interrupted (the
   * process stopped before the customer got the page) are looked up by order and closed, and their
   * idempotency key is released. Safe to run on every process at once: each payment is settled
   * under its row lock.
   */
  async run(log: FastifyBaseLogger, options: ReconcileOptions = {}): Promise<ReconcileCounts> {
    const counts: ReconcileCounts = { checked: 0, changed: 0, failed: 0, abandoned: 0 };
    const { provider } = this.deps;
    if (!provider) return counts;
    await reconcileOpenPayments(this.deps, provider, log, options, counts);
    await closeInterruptedStarts(this.deps, provider, log, options, counts);
    return counts;
  }

  /**
   * Asks the provider about one payment now, whatever its age (support's `npm run admin --
   * reconcile <id>`), and applies the answer exactly as the periodic run would: credited at most
   * once, under the payment's lock. A credited payment is asked again too: its refunds are news.
   */
  async one(log: FastifyBaseLogger, paymentId: string): Promise<SinglePaymentOutcome> {
    const { deps } = this;
    const { provider } = deps;
    if (!provider) return 'no_provider';
    const [payment] = await deps.db.select().from(payments).where(eq(payments.id, paymentId));
    if (!payment) return 'unknown';
    if (payment.provider !== provider.name) return 'other_provider';
    if (!payment.providerPaymentId || !payment.redirectUrl) {
      return isUnsettled(payment.status) ? 'not_started' : 'settled';
    }
    if (!isUnsettled(payment.status) && !payment.creditedAt) return 'settled';
    if (payment.status === 'REFUNDED') return 'settled';
    // Never cancelled from here: support asks, the periodic run decides what is abandoned.
    return checkOpenPayment(deps, provider, log, payment, Number.POSITIVE_INFINITY);
  }
}

/** Payments the customer was sent to pay: GetState, and Cancel once the page is long expired. */
async function reconcileOpenPayments(
  deps: ReconcileDeps,
  provider: Provider,
  log: FastifyBaseLogger,
  options: ReconcileOptions,
  counts: ReconcileCounts,
) {
  const { olderThanMs = 2 * MINUTE, expiryMarginMs = 60 * MINUTE, limit = 100 } = options;
  const now = deps.clock.now();
  const due = await deps.db
    .select({
      id: payments.id,
      providerPaymentId: payments.providerPaymentId,
      expiresAt: payments.expiresAt,
    })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider.name),
        isNull(payments.creditedAt),
        isNotNull(payments.providerPaymentId),
        isNotNull(payments.redirectUrl),
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

  for (const candidate of due) {
    counts.checked++;
    const outcome = await checkOpenPayment(deps, provider, log, candidate, expiryMarginMs);
    if (outcome === 'failed') counts.failed++;
    if (outcome === 'changed' || outcome === 'abandoned') counts.changed++;
    if (outcome === 'abandoned') counts.abandoned++;
  }
}

type OpenPaymentOutcome = 'unchanged' | 'changed' | 'abandoned' | 'failed';

/** GetState of one payment sent to the customer (Cancel once long expired), applied under its lock. */
async function checkOpenPayment(
  deps: ReconcileDeps,
  provider: Provider,
  log: FastifyBaseLogger,
  candidate: { id: string; providerPaymentId: string | null; expiresAt: Date },
  expiryMarginMs: number,
): Promise<OpenPaymentOutcome> {
  const now = deps.clock.now();
  const providerPaymentId = candidate.providerPaymentId!;
  try {
    let state = await provider.client.getState({ PaymentId: providerPaymentId });
    const isAbandoned = now.getTime() > candidate.expiresAt.getTime() + expiryMarginMs;
    let isCancelled = false;
    if (isAbandoned && isWaiting(state.Status)) {
      const cancelled = await provider.client.cancel({ PaymentId: providerPaymentId });
      state = { ...state, Status: cancelled.Status };
      isCancelled = true;
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
    if (!isChanged) return 'unchanged';
    return isCancelled ? 'abandoned' : 'changed';
  } catch (error) {
    log.warn({ err: error, paymentId: candidate.id }, 'payment reconciliation failed');
    await deps.db
      .update(payments)
      .set({ checkedAt: deps.clock.now() })
      .where(eq(payments.id, candidate.id))
      .catch(() => {});
    return 'failed';
  }
}

/** What `reconcilePayment` found about one payment. */
export type SinglePaymentOutcome =
  | OpenPaymentOutcome
  /** No such payment. */
  | 'unknown'
  /** Settled already (credited, failed, refunded in full): nothing to ask. */
  | 'settled'
  /** The provider of the payment is not the one configured now. */
  | 'other_provider'
  /** Its start never reached the customer: `reconcilePayments` closes it when its time comes. */
  | 'not_started'
  /** No provider is configured. */
  | 'no_provider';

/**
 * Top-ups that never reached the customer long after their start: the process stopped while
 * waiting for Init (no PaymentId), or between Init and handing the page over. Nobody was given a
 * link, so nobody can pay them: whatever the provider has under the order is cancelled, the row
 * becomes INIT_FAILED and its idempotency key is released, so the customer's retry starts afresh.
 * Should the provider report money all the same, that report is applied as usual.
 */
async function closeInterruptedStarts(
  deps: ReconcileDeps,
  provider: Provider,
  log: FastifyBaseLogger,
  options: ReconcileOptions,
  counts: ReconcileCounts,
) {
  const { limit = 100 } = options;
  const now = deps.clock.now();
  const stalled = await deps.db
    .select({ id: payments.id, providerPaymentId: payments.providerPaymentId })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider.name),
        isNull(payments.creditedAt),
        isNull(payments.redirectUrl),
        inArray(payments.status, [...UNSETTLED_STATUSES]),
        lt(payments.createdAt, new Date(now.getTime() - startGiveUpAfterMs(deps.config))),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(limit);

  for (const candidate of stalled) {
    counts.checked++;
    const reports = await askAboutStart(provider, candidate).catch((error: unknown) => {
      // A refusal means the provider knows no payment under this order: the usual case when the
      // process stopped before Init reached it. Anything else is the provider failing; the
      // payment is closed all the same, since no customer has its link.
      if (!(error instanceof PaymentProviderError) || error.providerCode === undefined) {
        counts.failed++;
        log.warn({ err: error, paymentId: candidate.id }, 'could not ask about a stalled top-up');
      }
      return [] as ProviderReport[];
    });
    const report = reports.reduce<ProviderReport | null>(
      (best, next) => (!best || statusRank(next.status) > statusRank(best.status) ? next : best),
      null,
    );
    let outcome: 'unchanged' | 'changed' | 'abandoned';
    try {
      outcome = await deps.db.transaction(async (tx) => {
        const payment = await lockPayment(tx, candidate.id);
        // Handed over or settled meanwhile (a slow start finished, another process got here).
        if (!payment || payment.redirectUrl || !isUnsettled(payment.status)) return 'unchanged';
        const time = deps.clock.now();
        const settled =
          report && !isWaiting(report.status)
            ? await settlePayment(tx, payment, report, time, log)
            : payment;
        // A payment being paid right now (AUTHORIZING, …) is asked about again next run.
        if (isUnsettled(settled.status) && !isWaiting(settled.status)) {
          await tx.update(payments).set({ checkedAt: time }).where(eq(payments.id, payment.id));
          return settled.status === payment.status ? 'unchanged' : 'changed';
        }
        await tx
          .update(payments)
          .set({
            ...(isWaiting(settled.status) ? { status: 'INIT_FAILED' } : {}),
            providerPaymentId: settled.providerPaymentId ?? report?.providerPaymentId ?? null,
            idempotencyKey: null,
            checkedAt: time,
            updatedAt: time,
          })
          .where(eq(payments.id, payment.id));
        return isWaiting(settled.status) ? 'abandoned' : 'changed';
      });
    } catch (error) {
      counts.failed++;
      log.warn({ err: error, paymentId: candidate.id }, 'closing a stalled top-up failed');
      continue;
    }
    if (outcome !== 'unchanged') counts.changed++;
    if (outcome !== 'abandoned') continue;
    counts.abandoned++;
    // Closed first, cancelled after: the provider's CANCELED report that follows does not
    // replace INIT_FAILED (statuses.ts).
    for (const open of reports.filter((each) => isWaiting(each.status))) {
      await provider.client.cancel({ PaymentId: open.providerPaymentId }).catch((error) => {
        log.warn({ err: error, paymentId: candidate.id }, 'could not cancel at the provider');
      });
    }
  }
}

/** What the provider has under this payment: by its PaymentId when known, else by our OrderId. */
async function askAboutStart(
  provider: Provider,
  payment: { id: string; providerPaymentId: string | null },
): Promise<ProviderReport[]> {
  if (payment.providerPaymentId) {
    const state = await provider.client.getState({ PaymentId: payment.providerPaymentId });
    return [{ status: state.Status, amount: state.Amount, providerPaymentId: state.PaymentId }];
  }
  const order = await provider.client.checkOrder({ OrderId: payment.id });
  return order.Payments.map((each) => ({
    status: each.Status,
    amount: each.Amount ?? 0,
    providerPaymentId: each.PaymentId,
  }));
}
