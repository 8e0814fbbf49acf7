import { describe, expect, it } from 'vitest';
import { yandexCallbackUrl } from './yandex-callback-url';

describe('yandexCallbackUrl', () => {
  it('turns the fragment into the query string of the API callback', () => {
    expect(yandexCallbackUrl('', '#access_token=abc&token_type=bearer&state=s1')).toBe(
      '/auth/yandex/callback?access_token=abc&token_type=bearer&state=s1',
    );
  });

  it('uses the main API base', () => {
    expect(yandexCallbackUrl('https://api.example.org', '#state=x')).toBe(
      'https://api.example.org/auth/yandex/callback?state=x',
    );
  });

  it('keeps encoded values intact', () => {
    const url = new URL(
      yandexCallbackUrl('https://api.example.org', '#error_description=a%20b%26c'),
    );
    expect(url.searchParams.get('error_description')).toBe('a b&c');
  });

  it('adds no query when there is no fragment', () => {
    expect(yandexCallbackUrl('', '')).toBe('/auth/yandex/callback');
    expect(yandexCallbackUrl('', '#')).toBe('/auth/yandex/callback');
  });
});
