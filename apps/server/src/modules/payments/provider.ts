import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type FetchLike, TbankClient } from '../../adapters/tbank/client.js';
import { injectFetch } from '../../adapters/tbank/inject-fetch.js';
import { type Config, ConfigError } from '../../config.js';

type ProviderName = 'tbank' | 'sandbox';

/** The acquiring terminal top-ups go through: T-Bank itself, or the sandbox that imitates it. */
export interface PaymentProvider {
  name: ProviderName;
  terminalKey: string;
  /** Signs requests and verifies notifications. */
  password: string;
  client: TbankClient;
}

export const SANDBOX_TERMINAL_KEY = 'PortalSandboxDEMO';
export const SANDBOX_PATH = '/sandbox/tbank';

/** Derived from SECRET_KEY, so sandbox signatures are not guessable from the source code. */
export function sandboxPassword(config: Pick<Config, 'SECRET_KEY'>): string {
  return createHmac('sha256', config.SECRET_KEY).update('tbank-sandbox').digest('base64url');
}

function providerName(config: Config): ProviderName {
  if (config.PAYMENT_PROVIDER === 'auto') return config.TBANK_TERMINAL_KEY ? 'tbank' : 'sandbox';
  return config.PAYMENT_PROVIDER;
}

/**
 * Without a terminal key the sandbox serves top-ups (DESIGN §4), so the path works on a fresh
 * machine. Its API calls stay inside the process (`app.inject`) unless `fetch` is given.
 */
export function createPaymentProvider(
  config: Config,
  getApp: () => FastifyInstance,
  fetch?: FetchLike,
): PaymentProvider {
  const name = providerName(config);
  if (name === 'tbank') {
    if (!config.TBANK_TERMINAL_KEY || !config.TBANK_PASSWORD) {
      throw new ConfigError([
        'TBANK_TERMINAL_KEY и TBANK_PASSWORD нужны для PAYMENT_PROVIDER=tbank',
      ]);
    }
    return {
      name,
      terminalKey: config.TBANK_TERMINAL_KEY,
      password: config.TBANK_PASSWORD,
      client: new TbankClient({
        baseUrl: config.TBANK_API_URL,
        terminalKey: config.TBANK_TERMINAL_KEY,
        password: config.TBANK_PASSWORD,
        fetch: fetch ?? globalThis.fetch,
        timeoutMs: config.TBANK_TIMEOUT_MS,
      }),
    };
  }
  const password = sandboxPassword(config);
  return {
    name,
    terminalKey: SANDBOX_TERMINAL_KEY,
    password,
    client: new TbankClient({
      baseUrl: `${config.PUBLIC_URL}${SANDBOX_PATH}`,
      terminalKey: SANDBOX_TERMINAL_KEY,
      password,
      fetch: fetch ?? injectFetch(getApp),
      timeoutMs: config.TBANK_TIMEOUT_MS,
    }),
  };
}
