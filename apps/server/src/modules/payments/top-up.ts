import { TOP_UP_DESCRIPTION } from '@portal/contracts/constants';
import { TOP_UP_NOT_CONFIGURED, USER_NOT_FOUND } from '@portal/contracts/messages';
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { enforceLimit, type RateLimiter } from '../../adapters/rate-limit.js';
import { PaymentProviderError, tbankDateTime } from '../../adapters/tbank/client.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import {
  IDEMPOTENCY_KEY_REUSED,
  PAYMENT_IN_PROGRESS,
  PAYMENT_PROVIDER_UNAVAILABLE,
  TOP_UP_SBP_TOO_SMALL,
  TOP_UP_TOO_LARGE,
  TOP_UP_TOO_SMALL,
} from './messages.js';
import type { PaymentProvider } from './provider.js';
import { walletReceipt } from './receipt.js';
import { type PaymentRow, payments } from './schema.js';

export type TopUpMethod = PaymentRow['method'];

/** Reconciliation closed the payment while this request was still starting it. */
class ClosedMeanwhile extends Error {}

/** T-Bank refuses SBP payments under 10 ₽. */
const SBP_MIN_ROUBLES = 10;

/** Top-up attempts per user: 30 per 10 minutes. */
const TOP_UP_RATE = { limit: 30, windowMs: 10 * 60_000 };

/**
 * How long the payment page (card) or SBP link may be paid: T-Bank's own default, sent explicitly
 * as RedirectDueDate so that the portal knows the moment it ends (the history stops offering it).
 */
export const PAYMENT_PAGE_LIFETIME_MS = 24 * 60 * 60_000;

/** Where the provider sends its notifications and the browser after paying. */
export const NOTIFICATION_PATH = '/paymentms/api/Payment/notification';

function topUpLimits(config: Config, method: TopUpMethod) {
  const min = Math.max(config.TOP_UP_MIN_ROUBLES, method === 'sbp' ? SBP_MIN_ROUBLES : 0);
  return { minKopecks: min * 100, maxKopecks: config.TOP_UP_MAX_ROUBLES * 100 };
}

function checkLimits(config: Config, method: TopUpMethod, amountKopecks: number) {
  const { minKopecks, maxKopecks } = topUpLimits(config, method);
  let message: string | null = null;
  if (amountKopecks < minKopecks) {
    message =
      method === 'sbp' && minKopecks === SBP_MIN_ROUBLES * 100
        ? TOP_UP_SBP_TOO_SMALL(SBP_MIN_ROUBLES)
        : TOP_UP_TOO_SMALL(minKopecks / 100);
  } else if (amountKopecks > maxKopecks) {
    message = TOP_UP_TOO_LARGE(maxKopecks / 100);
  }
  if (message) throw invalidInput(message, { amount: [message] });
}

export interface TopUpInput {
  userId: string;
  method: TopUpMethod;
  amountKopecks: number;
  idempotencyKey?: string | undefined;
}

export interface TopUpDeps {
  config: Config;
  db: Db;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** Null when no terminal is configured: a top-up then answers 503. */
  provider: PaymentProvider | null;
}

export class TopUps {
  constructor(private readonly deps: TopUpDeps) {}

  /**
   * Starts a top-up: records a pending payment, asks the provider for a payment page (card) or an
   * SBP payload, and answers where to send the browser. Nothing is credited here: only a signed
   * CONFIRMED report does that. With an idempotency key, a repeat answers the first answer.
   */
  async start(
    input: TopUpInput,
    log: FastifyBaseLogger,
  ): Promise<{ redirectUrl: string; paymentId: string }> {
    const { deps } = this;
    const provider = deps.provider;
    if (!provider) throw new AppError('unavailable', TOP_UP_NOT_CONFIGURED);
    checkLimits(deps.config, input.method, input.amountKopecks);
    // Each attempt costs a provider call; a person tops up a few times, not dozens.
    await enforceLimit(deps.rateLimiter, `top-up:${input.userId}`, TOP_UP_RATE);
    const user = await findUserById(deps.db, input.userId);
    if (!user) throw notFound(USER_NOT_FOUND);

    const now = deps.clock.now();
    // Whole seconds: RedirectDueDate carries no fractions, and the row says what the provider got.
    const expiresAt = new Date(
      Math.floor((now.getTime() + PAYMENT_PAGE_LIFETIME_MS) / 1000) * 1000,
    );
    const [created] = await deps.db
      .insert(payments)
      .values({
        userId: input.userId,
        method: input.method,
        amountKopecks: input.amountKopecks,
        provider: provider.name,
        idempotencyKey: input.idempotencyKey ?? null,
        expiresAt,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (!created) return this.repeatAnswer(input);

    /**
     * Records what the provider answered while the payment is still starting (NEW), unless
     * reconciliation has closed it meanwhile (reconcile.ts: only once Init's timeout has long
     * passed, so only a stalled process gets here). Its key may belong to a new attempt by then:
     * this one answers as a provider failure, and the closed row stays closed. Reconciliation has
     * settled the provider's side already (it may even have found the payment paid): nothing is
     * cancelled from here.
     */
    const keepWhileStarting = async (
      fields: { providerPaymentId: string } | { redirectUrl: string },
    ) => {
      const kept = await deps.db
        .update(payments)
        .set({ ...fields, updatedAt: deps.clock.now() })
        .where(and(eq(payments.id, created.id), eq(payments.status, 'NEW')))
        .returning({ id: payments.id });
      if (kept.length === 0) throw new ClosedMeanwhile();
    };

    let providerPaymentId: string | undefined;
    try {
      const init = await provider.client.init({
        Amount: input.amountKopecks,
        OrderId: created.id,
        Description: TOP_UP_DESCRIPTION,
        Language: 'ru',
        PayType: 'O',
        NotificationURL: `${deps.config.PUBLIC_URL}${NOTIFICATION_PATH}`,
        SuccessURL: `${deps.config.PUBLIC_URL}/?topup=success`,
        FailURL: `${deps.config.PUBLIC_URL}/?topup=fail`,
        RedirectDueDate: tbankDateTime(expiresAt),
        Receipt: walletReceipt(deps.config, user.email, input.amountKopecks),
      });
      if (init.Amount !== input.amountKopecks || init.OrderId !== created.id) {
        throw new PaymentProviderError('Init answered another order or amount');
      }
      providerPaymentId = init.PaymentId;
      // Kept before GetQr: should GetQr fail, reconciliation can still ask about this payment.
      await keepWhileStarting({ providerPaymentId: init.PaymentId });
      const redirectUrl =
        input.method === 'sbp'
          ? (await provider.client.getQr({ PaymentId: init.PaymentId, DataType: 'PAYLOAD' })).Data
          : init.PaymentURL;
      await keepWhileStarting({ redirectUrl });
      return { redirectUrl, paymentId: created.id };
    } catch (error) {
      if (error instanceof ClosedMeanwhile) {
        log.warn({ paymentId: created.id }, 'top-up closed by reconciliation while starting');
        throw new AppError('unavailable', PAYMENT_PROVIDER_UNAVAILABLE);
      }
      if (!(error instanceof PaymentProviderError)) throw error;
      log.warn(
        { err: error, paymentId: created.id, providerCode: error.providerCode },
        'payment provider refused or failed',
      );
      // The key is released so that the caller's retry starts a fresh payment. Only a payment
      // still starting is closed here; one reconciliation has settled meanwhile stays as it is.
      const closed = await deps.db
        .update(payments)
        .set({ status: 'INIT_FAILED', idempotencyKey: null, updatedAt: deps.clock.now() })
        .where(and(eq(payments.id, created.id), eq(payments.status, 'NEW')))
        .returning({ id: payments.id });
      // Created at the provider but never shown to the customer (GetQr failed): nobody can pay
      // it, so it is cancelled there too rather than left open until it expires.
      if (providerPaymentId && closed.length > 0) {
        await provider.client.cancel({ PaymentId: providerPaymentId }).catch((cancelError) => {
          log.warn({ err: cancelError, paymentId: created.id }, 'could not cancel at the provider');
        });
      }
      throw new AppError('unavailable', PAYMENT_PROVIDER_UNAVAILABLE);
    }
  }

  private async repeatAnswer(input: TopUpInput) {
    const [first] = await this.deps.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.userId, input.userId),
          eq(payments.idempotencyKey, input.idempotencyKey ?? ''),
        ),
      );
    // Released between our insert and this read: the first attempt failed, the caller may retry.
    if (!first) throw new AppError('conflict', PAYMENT_IN_PROGRESS);
    if (first.method !== input.method || first.amountKopecks !== input.amountKopecks) {
      throw new AppError('conflict', IDEMPOTENCY_KEY_REUSED);
    }
    if (!first.redirectUrl) throw new AppError('conflict', PAYMENT_IN_PROGRESS);
    return { redirectUrl: first.redirectUrl, paymentId: first.id };
  }
}
