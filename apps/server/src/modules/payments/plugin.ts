import fp from 'fastify-plugin';
import type { FetchLike } from '../../adapters/tbank/client.js';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import type {} from '../auth/plugin.js';
import type {} from '../metrics/plugin.js';
import type {} from '../payment-sandbox/plugin.js';
import { paymentsData } from './data-owner.js';
import { createPaymentProvider, type PaymentProvider } from './provider.js';
import { isLocalPortal } from './provider-choice.js';
import { reconcilePayments } from './reconcile.js';
import { type RefundOutcome, type RefundPaymentInput, refundPayment } from './refund.js';
import { paymentRoutes } from './routes.js';

export interface PaymentsDeps {
  /** Null when no terminal is configured: top-ups then answer 503. */
  provider: PaymentProvider | null;
  /** `refundPayment` (refund.ts) with this app's dependencies and log: staff refunds. */
  refundPayment(input: RefundPaymentInput): Promise<RefundOutcome>;
}

declare module '../../deps.js' {
  interface AppDeps {
    payments: PaymentsDeps;
  }
}

export interface PaymentsOptions {
  /**
   * Outbound HTTP of the payment path: provider API calls, the sandbox's included. Default:
   * global fetch for T-Bank, the sandbox's terminal called in the process. Tests route it into
   * the app.
   */
  fetch?: FetchLike | undefined;
}

/** Top-up, notifications, history, and reconciliation with the chosen provider. */
export const paymentsPlugin = fp<PaymentsOptions>(
  async (app, options) => {
    app.deps.dataOwners.register(paymentsData);
    const { config, paymentSandbox, metrics } = app.deps;
    const provider = createPaymentProvider(config, paymentSandbox, options.fetch);
    app.deps.payments = {
      provider,
      refundPayment: (input) => refundPayment(app.deps, input, app.log),
    };
    await app.register(paymentRoutes);
    if (!provider) {
      app.log.warn(
        'top-ups are off, no payment terminal: set TBANK_TERMINAL_KEY and TBANK_PASSWORD, ' +
          'or PAYMENT_PROVIDER=sandbox for a staging where nothing is really paid',
      );
    } else if (provider.name === 'sandbox' && !isLocalPortal(config.PUBLIC_URL)) {
      app.log.warn(
        'top-ups run on the sandbox (PAYMENT_PROVIDER=sandbox): anyone can top up for free; ' +
          'set TBANK_TERMINAL_KEY and TBANK_PASSWORD for real payments',
      );
    }
    schedulePeriodicJob(
      app,
      'payment reconciliation',
      config.PAYMENT_RECONCILE_INTERVAL_SECONDS,
      () => metrics.countReconciliation(() => reconcilePayments(app.deps, app.log)),
    );
  },
  { name: 'payments', dependencies: ['core', 'metrics', 'auth', 'payment-sandbox'] },
);
