import { describe, expect, it } from 'vitest';
import { testConfig } from '../../config.js';
import { choosePaymentProvider } from './provider-choice.js';

describe('choosing the payment provider', () => {
  const choose = (overrides: Parameters<typeof testConfig>[0]) =>
    choosePaymentProvider(testConfig({ PAYMENT_PROVIDER: 'auto', ...overrides }));

  it('auto: T-Bank with a terminal key, wherever the portal is', () => {
    expect(choose({ TBANK_TERMINAL_KEY: 'Terminal', PUBLIC_URL: 'http://localhost:3000' })).toBe(
      'tbank',
    );
    expect(choose({ TBANK_TERMINAL_KEY: 'Terminal', PUBLIC_URL: 'https://lk.example.com' })).toBe(
      'tbank',
    );
  });

  it('auto without a key: the sandbox only on a local portal, else none', () => {
    expect(choose({ PUBLIC_URL: 'http://localhost:3000' })).toBe('sandbox');
    expect(choose({ PUBLIC_URL: 'http://127.0.0.1:3000' })).toBe('sandbox');
    expect(choose({ PUBLIC_URL: 'https://lk.example.com' })).toBe('none');
    expect(choose({ PUBLIC_URL: 'http://192.168.1.10:3000' })).toBe('none');
  });

  it('an explicit choice is kept: the sandbox on a staging, T-Bank anywhere', () => {
    expect(choose({ PAYMENT_PROVIDER: 'sandbox', PUBLIC_URL: 'https://staging.example.com' })).toBe(
      'sandbox',
    );
    expect(choose({ PAYMENT_PROVIDER: 'tbank', PUBLIC_URL: 'http://localhost:3000' })).toBe(
      'tbank',
    );
  });
});
