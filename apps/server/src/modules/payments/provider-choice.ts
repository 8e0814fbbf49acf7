import type { Config } from '../../config.js';

export type ProviderName = 'tbank' | 'sandbox';

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
 * answer 503). `tbank` and `sandbox` are what the operator asked for. The payment-sandbox module
 * asks it too: it serves its terminal only when it is the choice.
 */
export function choosePaymentProvider(
  config: Pick<Config, 'PAYMENT_PROVIDER' | 'TBANK_TERMINAL_KEY' | 'PUBLIC_URL'>,
): ProviderName | 'none' {
  if (config.PAYMENT_PROVIDER !== 'auto') return config.PAYMENT_PROVIDER;
  if (config.TBANK_TERMINAL_KEY) return 'tbank';
  return isLocalPortal(config.PUBLIC_URL) ? 'sandbox' : 'none';
}
