import fp from 'fastify-plugin';
import type { FetchLike } from '../../adapters/tbank/client.js';
import type {} from '../../core-plugin.js';
import { schedulePeriodicJob } from '../../jobs/periodic-job.js';
import { isLocalPortal } from '../../local-portal.js';
import type {} from '../accounts/plugin.js';
import type {} from '../auth/plugin.js';
import type {} from '../metrics/plugin.js';
import type {} from '../payment-sandbox/plugin.js';
import { paymentsData } from './data-owner.js';
import { Notifications } from './notifications.js';
import { paymentOwnerIds } from './operator-reads.js';
import { createPaymentProvider, type PaymentProvider } from './provider.js';
import { Reconciliation } from './reconcile.js';
import { Refunds } from './refund.js';
import { paymentRoutes } from './routes.js';
import { TopUps } from './top-up.js';

export interface PaymentsDeps {
  /** Null when no terminal is configured: top-ups then answer 503. */
  provider: PaymentProvider | null;
  topUps: TopUps;
  /** The provider's notifications (its POST to NOTIFICATION_PATH). */
  notifications: Notifications;
  /** The periodic run, and support's `reconcile` (operator/payment-commands.ts). */
  reconciliation: Reconciliation;
  /** Staff refunds (operator/payment-commands.ts), logged to this app's log. */
  refunds: Refunds;
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
    // Support's account search finds a payment's payer by the payment's id (either one).
    app.deps.accountSearch.addReference({ matchedBy: 'payment', ownersOf: paymentOwnerIds });
    const { config, db, clock, rateLimiter, mail, paymentSandbox, metrics } = app.deps;
    const provider = createPaymentProvider(config, paymentSandbox, options.fetch);
    const reconciliation = new Reconciliation({ config, db, clock, provider });
    app.deps.payments = {
      provider,
      topUps: new TopUps({ config, db, clock, rateLimiter, provider }),
      notifications: new Notifications({ db, clock, rateLimiter, provider }),
      reconciliation,
      refunds: new Refunds({ config, db, clock, mail, provider, log: app.log }),
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
      () => metrics.countReconciliation(() => reconciliation.run(app.log)),
    );
  },
  { name: 'payments', dependencies: ['core', 'accounts', 'metrics', 'auth', 'payment-sandbox'] },
);
