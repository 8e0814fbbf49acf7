import type { FastifyInstance } from 'fastify';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { sandboxRoutes } from '../../adapters/tbank/sandbox/routes.js';
import type { Config } from '../../config.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import { createPaymentProvider, type PaymentProvider, SANDBOX_PATH } from './provider.js';
import { reconcilePayments } from './reconcile.js';
import { paymentRoutes } from './routes.js';

export interface PaymentsDeps {
  provider: PaymentProvider;
}

export interface PaymentsOptions {
  /**
   * Outbound HTTP of the payment path: provider API calls and the sandbox's notifications.
   * Default: global fetch (the sandbox's API calls stay in-process). Tests route it into the app.
   */
  fetch?: FetchLike | undefined;
}

export function createPaymentsDeps(
  config: Config,
  getApp: () => FastifyInstance,
  options: PaymentsOptions = {},
): PaymentsDeps {
  return { provider: createPaymentProvider(config, getApp, options.fetch) };
}

/** Top-up, notifications, history, the sandbox provider when active, and reconciliation. */
export async function registerPayments(app: FastifyInstance, options: PaymentsOptions = {}) {
  const { config, payments, db, clock } = app.deps;
  await app.register(paymentRoutes);
  if (payments.provider.name === 'sandbox') {
    if (config.NODE_ENV === 'production') {
      app.log.warn('payments run on the sandbox provider: set TBANK_TERMINAL_KEY for real money');
    }
    await app.register(sandboxRoutes, {
      prefix: SANDBOX_PATH,
      db,
      clock,
      publicBase: `${config.PUBLIC_URL}${SANDBOX_PATH}`,
      terminalKey: payments.provider.terminalKey,
      password: payments.provider.password,
      fetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    });
  }
  schedulePeriodicJob(
    app,
    'payment reconciliation',
    config.PAYMENT_RECONCILE_INTERVAL_SECONDS,
    () => reconcilePayments(app.deps, app.log),
  );
}
