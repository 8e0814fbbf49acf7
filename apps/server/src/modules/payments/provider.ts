import { type FetchLike, TbankClient } from '../../adapters/tbank/client.js';
import { type Config, ConfigError, missingTbankSettings } from '../../config.js';
import type { SandboxTerminal } from '../payment-sandbox/index.js';
import { choosePaymentProvider, type ProviderName } from './provider-choice.js';

/** The acquiring terminal top-ups go through: T-Bank itself, or the sandbox that imitates it. */
export interface PaymentProvider {
  name: ProviderName;
  terminalKey: string;
  /** Signs requests and verifies notifications. */
  password: string;
  client: TbankClient;
}

/**
 * The provider top-ups go through, or null when none is configured. The sandbox's API calls are
 * answered inside the process by its terminal (`sandbox.fetch`) unless `fetch` is given.
 */
export function createPaymentProvider(
  config: Config,
  sandbox: SandboxTerminal | null,
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
  // The payment-sandbox module serves a terminal whenever it is the choice.
  if (!sandbox) throw new Error('the payment sandbox is chosen but not registered');
  return {
    name,
    terminalKey: sandbox.terminalKey,
    password: sandbox.password,
    client: new TbankClient({
      baseUrl: sandbox.publicBase,
      terminalKey: sandbox.terminalKey,
      password: sandbox.password,
      fetch: fetch ?? sandbox.fetch,
      timeoutMs: config.TBANK_TIMEOUT_MS,
    }),
  };
}
