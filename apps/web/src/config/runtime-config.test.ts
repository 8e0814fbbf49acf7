import { describe, expect, it } from 'vitest';
import { parseRuntimeConfig } from './runtime-config';

const defaults = parseRuntimeConfig(null);

describe('parseRuntimeConfig', () => {
  it('uses same-origin API bases and the documented defaults when nothing is injected', () => {
    expect(defaults).toEqual({
      apiBaseUrl: '',
      msApiBaseUrl: '',
      supportUrl: 'https://t.me/gamehost_support',
      hostingUrl: 'https://hosting.example.com',
      launcherUrl: 'https://launcher.example.com',
      privacyUrl: 'https://hosting.example.com/privacy',
      brandName: 'GameHost',
      isTelegramOffered: false,
      isYandexOffered: false,
    });
  });

  it('offers Telegram and Yandex ID only when the server says it has them', () => {
    const config = parseRuntimeConfig(
      JSON.stringify({ isTelegramOffered: true, isYandexOffered: 'yes' }),
    );
    expect(config.isTelegramOffered).toBe(true);
    expect(config.isYandexOffered).toBe(false);
  });

  it('reads what the server injected, dropping a trailing slash from the bases', () => {
    const config = parseRuntimeConfig(
      JSON.stringify({
        apiBaseUrl: 'https://api.example.org/',
        msApiBaseUrl: 'https://ms.example.org',
        supportUrl: 'https://t.me/help',
        brandName: 'Рога и копыта',
      }),
    );
    expect(config.apiBaseUrl).toBe('https://api.example.org');
    expect(config.msApiBaseUrl).toBe('https://ms.example.org');
    expect(config.supportUrl).toBe('https://t.me/help');
    expect(config.brandName).toBe('Рога и копыта');
    expect(config.hostingUrl).toBe(defaults.hostingUrl);
  });

  it.each([
    ['broken JSON', '{"apiBaseUrl":'],
    ['an array', '[1,2]'],
    ['null', 'null'],
  ])('falls back to the defaults for %s', (_, raw) => {
    expect(parseRuntimeConfig(raw)).toEqual(defaults);
  });

  it('replaces only the malformed fields', () => {
    const config = parseRuntimeConfig(
      JSON.stringify({ brandName: '', supportUrl: 5, apiBaseUrl: '/api' }),
    );
    expect(config.brandName).toBe('GameHost');
    expect(config.supportUrl).toBe(defaults.supportUrl);
    expect(config.apiBaseUrl).toBe('/api');
  });
});
