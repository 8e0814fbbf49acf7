import type { FastifyInstance } from 'fastify';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { sandboxRoutes } from '../../adapters/tbank/sandbox/routes.js';
import type { Config } from '../../config.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import {
  createPaymentProvider,
  isLocalPortal,
  type PaymentProvider,
  SANDBOX_PATH,
} from './provider.js';
import { reconcilePayments } from './reconcile.js';
import { paymentRoutes } from './routes.js';

export interface PaymentsDeps {
  /** Null when no terminal is configured: top-ups then answer 503. */
  provider: PaymentProvider | null;
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
  const { provider } = payments;
  if (!provider) {
    app.log.warn(
      'top-ups are off, no payment terminal: set TBANK_TERMINAL_KEY and TBANK_PASSWORD, ' +
        'or PAYMENT_PROVIDER=sandbox for a staging where nothing is really paid',
    );
  } else if (provider.name === 'sandbox') {
    if (!isLocalPortal(config.PUBLIC_URL)) {
      app.log.warn(
        'top-ups run on the sandbox (PAYMENT_PROVIDER=sandbox): anyone can top up for free; ' +
          'set TBANK_TERMINAL_KEY and TBANK_PASSWORD for real payments',
      );
    }
    await app.register(sandboxRoutes, {
      prefix: SANDBOX_PATH,
      db,
      clock,
      publicBase: `${config.PUBLIC_URL}${SANDBOX_PATH}`,
      terminalKey: provider.terminalKey,
      password: provider.password,
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
