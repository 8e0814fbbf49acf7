import { describe, expect, it } from 'vitest';
import { testConfig } from '../../config.js';
import { choosePaymentProvider, isLocalPortal } from './provider-choice.js';

describe('a plainly local portal', () => {
  it.each([
    'http://localhost:3000',
    'http://LOCALHOST:3000/',
    'http://portal.localhost',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    // The URL parser reads this shorthand as 127.0.0.1.
    'http://127.1',
    'http://[::1]:3000',
  ])('%s is local', (url) => {
    expect(isLocalPortal(url)).toBe(true);
  });

  it.each([
    'https://portal.example.com',
    'http://localhost.example.com',
    'http://mylocalhost',
    'http://127.0.0.1.nip.io',
    'http://10.0.0.5',
    'http://192.168.1.10:3000',
    'http://0.0.0.0:3000',
    'http://[::2]',
    'http://128.0.0.1',
  ])('%s is not local', (url) => {
    expect(isLocalPortal(url)).toBe(false);
  });
});

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
