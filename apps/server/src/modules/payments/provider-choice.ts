import type { Config } from '../../config.js';
import { isLocalPortal } from '../../local-portal.js';

export type ProviderName = 'tbank' | 'sandbox';

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
