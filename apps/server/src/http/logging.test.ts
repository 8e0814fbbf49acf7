import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../test/fixtures.js';
import { createTestApp } from '../../test/test-app.js';
import { redactUrl } from './logging.js';

// The app's own logger, writing into this array instead of stdout.
const lines: string[] = [];
const testApp = await createTestApp({
  config: { LOG_LEVEL: 'info' },
  logStream: { write: (line) => void lines.push(line) },
});
const { app } = testApp;

/** Log lines written while `run` ran. */
async function logOf(run: () => Promise<unknown>): Promise<string> {
  const from = lines.length;
  await run();
  return lines.slice(from).join('');
}

describe('logs', () => {
  it('hide the values of secret query parameters, whatever the route answers', async () => {
    const { headers } = await createSignedInUser(testApp);
    const query =
      'api_key=S1&apikey=S2&key=S3&token=S4&access_token=S5&code=S6&state=S7&password=S8' +
      '&secret=S9&x-api-key=S10&link=S11&api%5Fkey=S12&page=2';
    const log = await logOf(async () => {
      await app.inject({ method: 'POST', url: `/authms/api/Auth/user?${query}`, headers });
      await app.inject({ method: 'GET', url: `/no-such-route?${query}` });
      await app.inject({ method: 'POST', url: `/authms/api/Auth/login?${query}`, payload: '{' });
    });
    expect(log).toContain('"url":"/authms/api/Auth/user?api_key=[скрыто]&apikey=[скрыто]');
    for (let i = 1; i <= 12; i++) expect(log).not.toMatch(new RegExp(`=S${i}\\b`));
    // Harmless parameters stay readable.
    expect(log).toContain('&page=2"');
  });

  it('never show secret request headers', async () => {
    const secrets = {
      authorization: 'Bearer H1-secret',
      cookie: 'sid=H2-secret',
      'x-api-key': 'H3-secret',
      'x-telegram-bot-api-secret-token': 'H4-secret',
      'x-refresh-token': 'H5-secret',
    };
    const log = await logOf(async () => {
      await app.inject({ method: 'POST', url: '/authms/api/Auth/user', headers: secrets });
      await app.inject({ method: 'POST', url: '/telegrambotms/api/Bot/webhook', headers: secrets });
    });
    expect(log).toContain('incoming request');
    expect(log).not.toContain('-secret');
  });

  it('hide secret headers that an error carries into a log line', async () => {
    // What an HTTP client's error looks like: the headers it sent travel with it.
    const error = Object.assign(new Error('provider answered 500'), {
      headers: { authorization: 'Bearer E1-secret', 'x-request-id': 'visible-id' },
    });
    const log = await logOf(async () => {
      app.log.warn({ err: error, headers: { 'set-cookie': 'E2-secret' } }, 'provider failed');
    });
    expect(log).toContain('visible-id');
    expect(log).not.toContain('-secret');
  });
});

describe('request URLs in the log', () => {
  it('hide tokens in the query and the key of a sandbox checkout link', () => {
    expect(redactUrl('/auth/confirm?email=a%40b.c&token=abc&x=1')).toBe(
      '/auth/confirm?email=a%40b.c&token=[скрыто]&x=1',
    );
    const checkoutToken = 'q5bXUk0o6Yk7T8v2Rc9nW1mJHf3sLpAeZgDxVtCiOyM';
    expect(redactUrl(`/sandbox/tbank/pay/${checkoutToken}?via=sbp`)).toBe(
      '/sandbox/tbank/pay/[скрыто]?via=sbp',
    );
    expect(redactUrl('/sandbox/tbank/v2/Init')).toBe('/sandbox/tbank/v2/Init');
  });
});
