import { PAYMENT_NOT_FOUND, TOP_UP_NOT_CONFIGURED } from '@portal/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import { limitFailures, type RateLimiter } from '../../adapters/rate-limit.js';
import { hasValidTbankToken } from '../../adapters/tbank/token.js';
import type { Db } from '../../db/database.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import {
  NOTIFICATION_AMOUNT_MISMATCH,
  NOTIFICATION_BAD_TOKEN,
  NOTIFICATION_PAYMENT_MISMATCH,
} from './messages.js';
import type { PaymentProvider } from './provider.js';
import { findPayment, recordReceipt } from './receipts.js';
import { SettlementRefused, settleReport } from './settlement.js';

/** Wrongly signed notifications per source address before it is refused outright. */
const FORGED_NOTIFICATION_RATE = { limit: 50, windowMs: 10 * 60_000 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface NotificationDeps {
  db: Db;
  clock: Clock;
  rateLimiter: RateLimiter;
  /** Null when no terminal is configured: nothing can be verified, every notification is 503. */
  provider: PaymentProvider | null;
}

export class Notifications {
  constructor(private readonly deps: NotificationDeps) {}

  /**
   * A provider notification (T-Bank's `NotificationPayment`). Its Token must be the signature
   * of the active terminal; anything else is refused without touching a payment. A fiscal receipt
   * (`Status: RECEIPT`) is stored (receipts.ts) and moves no money; other notifications that are
   * not about a payment's status (card binding, QR accounts) are acknowledged.
   */
  async receive(
    body: Record<string, unknown>,
    log: FastifyBaseLogger,
    sourceIp: string,
  ): Promise<void> {
    const { deps } = this;
    const provider = deps.provider;
    // Nothing can be verified without a terminal; 503 lets the bank retry once one is configured.
    if (!provider) throw new AppError('unavailable', TOP_UP_NOT_CONFIGURED);
    const failureKey = `payment-notification-fail:${sourceIp}`;
    await limitFailures(deps.rateLimiter, failureKey, FORGED_NOTIFICATION_RATE, async () => {
      if (
        body.TerminalKey !== provider.terminalKey ||
        !hasValidTbankToken(body, provider.password)
      ) {
        log.warn({ orderId: body.OrderId }, 'payment notification with a wrong signature refused');
        throw new AppError('forbidden', NOTIFICATION_BAD_TOKEN);
      }
    });
    const { OrderId: orderId, Status: status, Amount: amount, PaymentId: paymentId } = body;
    if (typeof status !== 'string' || body.NotificationType !== undefined) return;
    if (typeof orderId !== 'string' || !UUID.test(orderId)) {
      throw notFound(PAYMENT_NOT_FOUND);
    }
    if (status === 'RECEIPT') {
      const payment = await findPayment(deps.db, orderId);
      if (!payment) throw notFound(PAYMENT_NOT_FOUND);
      try {
        await recordReceipt(deps.db, payment, body, log);
      } catch (error) {
        if (!(error instanceof SettlementRefused)) throw error;
        log.warn({ paymentId: orderId, reason: error.reason }, 'receipt notification refused');
        throw invalidInput(
          error.reason === 'amount_mismatch'
            ? NOTIFICATION_AMOUNT_MISMATCH
            : NOTIFICATION_PAYMENT_MISMATCH,
        );
      }
      return;
    }
    if (
      typeof amount !== 'number' ||
      (typeof paymentId !== 'number' && typeof paymentId !== 'string')
    ) {
      throw invalidInput(NOTIFICATION_AMOUNT_MISMATCH);
    }

    const report = { status, amount, providerPaymentId: String(paymentId) };
    let found: boolean;
    try {
      found = await settleReport(deps.db, orderId, report, deps.clock.now(), log);
    } catch (error) {
      if (!(error instanceof SettlementRefused)) throw error;
      log.warn(
        { paymentId: orderId, reason: error.reason, status, amount },
        'payment notification refused',
      );
      throw invalidInput(
        error.reason === 'amount_mismatch'
          ? NOTIFICATION_AMOUNT_MISMATCH
          : NOTIFICATION_PAYMENT_MISMATCH,
      );
    }
    if (!found) throw notFound(PAYMENT_NOT_FOUND);
  }
}
