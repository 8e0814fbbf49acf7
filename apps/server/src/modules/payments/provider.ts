import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type FetchLike, TbankClient } from '../../adapters/tbank/client.js';
import { injectFetch } from '../../adapters/tbank/inject-fetch.js';
import { type Config, ConfigError, missingTbankSettings } from '../../config.js';

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

const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * A portal browsers reach only on this machine (`npm start` out of the box). Only there may the
 * sandbox, where anyone can "pay" for free, be chosen without being asked for.
 */
export function isLocalPortal(publicUrl: string): boolean {
  // URL normalises the host: lower case, IPv4 in dotted decimal, IPv6 in brackets.
  const host = new URL(publicUrl).hostname;
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    LOOPBACK_IPV4.test(host) ||
    host === '[::1]'
  );
}

/**
 * `auto`: T-Bank when a terminal key is set, else the sandbox on a local portal, else none (top-ups
 * answer 503). `tbank` and `sandbox` are what the operator asked for.
 */
export function choosePaymentProvider(
  config: Pick<Config, 'PAYMENT_PROVIDER' | 'TBANK_TERMINAL_KEY' | 'PUBLIC_URL'>,
): ProviderName | 'none' {
  if (config.PAYMENT_PROVIDER !== 'auto') return config.PAYMENT_PROVIDER;
  if (config.TBANK_TERMINAL_KEY) return 'tbank';
  return isLocalPortal(config.PUBLIC_URL) ? 'sandbox' : 'none';
}

/**
 * The provider top-ups go through, or null when none is configured. The sandbox's API calls stay
 * inside the process (`app.inject`) unless `fetch` is given.
 */
export function createPaymentProvider(
  config: Config,
  getApp: () => FastifyInstance,
  fetch?: FetchLike,
): PaymentProvider | null {
  const name = choosePaymentProvider(config);
  if (name === 'none') return null;
  if (name === 'tbank') {
    const { TBANK_TERMINAL_KEY: terminalKey, TBANK_PASSWORD: password } = config;
    // loadConfig refuses to start without them; a Config built in code may still lack them.
    if (!terminalKey || !password) throw new ConfigError(missingTbankSettings(config));
    return {
      name,
      terminalKey,
      password,
      client: new TbankClient({
        baseUrl: config.TBANK_API_URL,
        terminalKey,
        password,
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
