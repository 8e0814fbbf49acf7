import fp from 'fastify-plugin';
import type { FetchLike } from '../../adapters/tbank/client.js';
import type {} from '../../core-plugin.js';
import { choosePaymentProvider } from '../payments/index.js';
import { paymentSandboxData } from './data-owner.js';
import { sandboxRoutes } from './routes.js';
import {
  SANDBOX_PATH,
  SANDBOX_TERMINAL_KEY,
  SandboxTerminal,
  sandboxPassword,
} from './terminal.js';

declare module '../../deps.js' {
  interface AppDeps {
    /** The sandbox's terminal when it is the chosen provider, else null. */
    paymentSandbox: SandboxTerminal | null;
  }
}

export interface PaymentSandboxOptions {
  /** Sends the notifications; default global fetch. Tests route them into the app. */
  fetch?: FetchLike | undefined;
}

/**
 * The payment sandbox: a stand-in for T-Bank acquiring inside the portal, with its own book of
 * payments (`sandbox_payments`), served only when it is the chosen provider
 * (payments/provider-choice.ts). The payments module calls its terminal in the process; the
 * terminal notifies the portal over HTTP, as T-Bank does.
 */
export const paymentSandboxPlugin = fp<PaymentSandboxOptions>(
  async (app, options) => {
    app.deps.dataOwners.register(paymentSandboxData);
    const { config, db, clock } = app.deps;
    if (choosePaymentProvider(config) !== 'sandbox') {
      app.deps.paymentSandbox = null;
      return;
    }
    const terminal = new SandboxTerminal({
      db,
      clock,
      publicBase: `${config.PUBLIC_URL}${SANDBOX_PATH}`,
      terminalKey: SANDBOX_TERMINAL_KEY,
      password: sandboxPassword(config),
      notificationFetch: options.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      log: app.log,
    });
    app.deps.paymentSandbox = terminal;
    await app.register(sandboxRoutes, { prefix: SANDBOX_PATH, terminal });
  },
  { name: 'payment-sandbox', dependencies: ['core'] },
);
