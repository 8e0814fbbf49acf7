import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../test/support/fixtures.js';
import { createTestApp } from '../../test/support/test-app.js';
import type { Config } from '../config.js';
import { redactUrl } from './logging.js';

// The app's own logger, writing into this array instead of stdout.
const lines: string[] = [];
const testApp = await createTestApp({
  config: { LOG_LEVEL: 'info', ACCESS_LOG: 'all' },
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
    expect(log).toContain('request completed');
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

describe('the access log', () => {
  /** An app with the given access-log settings, and the log lines of one request to it. */
  async function linesOf(config: Partial<Config>, request: InjectOptions) {
    const written: string[] = [];
    const other = await createTestApp({
      config: { LOG_LEVEL: 'info', ...config },
      logStream: { write: (line) => void written.push(line) },
    });
    const { headers } = await createSignedInUser(other);
    written.length = 0;
    const response = await other.app.inject({ ...request, headers });
    return { status: response.statusCode, lines: written.map((line) => JSON.parse(line)) };
  }
  const read: InjectOptions = { method: 'POST', url: '/authms/api/Auth/user?page=2' };
  // Telegram linking without a bot token answers 503.
  const failing: InjectOptions = {
    method: 'GET',
    url: '/telegrambotms/api/Bot/generate-telegram-link',
  };

  it('by default writes nothing for an answered request', async () => {
    const { status, lines: written } = await linesOf({}, read);
    expect(status).toBe(200);
    expect(written).toEqual([]);
  });

  it('by default writes one line for a server error, with what was asked and answered', async () => {
    const { status, lines: written } = await linesOf({}, failing);
    expect(status).toBe(503);
    const requestLines = written.filter((line) => line.req);
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      level: 40,
      msg: 'request failed',
      req: { method: 'GET', url: failing.url },
      res: { statusCode: 503 },
    });
    expect(requestLines[0].responseTime).toBeTypeOf('number');
    // The error's own line and the request line carry the same request id.
    expect(requestLines[0].reqId).toBeDefined();
    expect(written.every((line) => line.reqId === requestLines[0].reqId)).toBe(true);
  });

  it('by default writes one line for a slow request', async () => {
    const { lines: written } = await linesOf({ ACCESS_LOG_SLOW_MS: 0 }, read);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ level: 40, msg: 'slow request', res: { statusCode: 200 } });
  });

  it('with ACCESS_LOG=all writes one line per request', async () => {
    const { lines: written } = await linesOf({ ACCESS_LOG: 'all' }, read);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'POST', url: read.url },
      res: { statusCode: 200 },
    });
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
