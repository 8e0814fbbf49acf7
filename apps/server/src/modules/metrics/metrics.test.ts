import { describe, expect, it } from 'vitest';
import { AUTH_API, addressSequence } from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  createUser,
  DEFAULT_PASSWORD,
} from '../../../test/support/fixtures.js';
import {
  parseExposition,
  sampleValue,
  scrape,
  seriesOf,
} from '../../../test/support/prometheus-exposition.js';
import { REDIS_URL } from '../../../test/support/services.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { waitFor } from '../../../test/support/wait-for.js';
import {
  createWalletTestApp,
  pressSandboxButton,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import type { SecondFactor } from '../auth/index.js';
import { READINGS_TTL_MS } from './database-readings.js';
import { PortalMetrics } from './portal-metrics.js';
import { METRICS_LOCAL_ONLY, METRICS_TOKEN_WRONG } from './routes.js';

const TOKEN = 'metrics-token-metrics-token-0123456789';
const REMOTE = '203.0.113.7';
const MINUTE = 60_000;
const LOGIN = `${AUTH_API}/login`;
const REQUESTS = 'portal_http_request_duration_seconds_count';

/** Users in `withSecondFactor` are asked for a code; no code is ever right. */
const withSecondFactor = new Set<string>();
const secondFactor: SecondFactor = {
  isEnabled: async (userId) => withSecondFactor.has(userId),
  verifyLoginCode: async () => false,
};

const nextIp = addressSequence('10.9');

describe('GET /metrics: who may scrape', () => {
  const testApp = createWalletTestApp({ config: { METRICS_TOKEN: TOKEN } });

  it('answers a caller on loopback, talking to the port directly', async () => {
    const { app } = await testApp;
    for (const remoteAddress of ['127.0.0.1', '::1']) {
      const answer = await app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(sampleValue(parseExposition(answer.body), 'portal_database_up')).toBe(1);
    }
  });

  it('with METRICS_TOKEN, answers the token from anywhere and refuses a missing or wrong one', async () => {
    const { app } = await testApp;
    const scrapeWith = (headers: Record<string, string>, remoteAddress = REMOTE) =>
      app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    for (const [headers, remoteAddress] of [
      [{}],
      [{ authorization: 'Bearer' }],
      [{ authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
      [{ authorization: `Bearer ${TOKEN}x` }],
      [{ authorization: `Basic ${TOKEN}` }],
      // Through a proxy on the same machine: not a local operator.
      [{ 'x-forwarded-for': REMOTE }, '127.0.0.1'],
    ] as [Record<string, string>, string?][]) {
      const answer = await scrapeWith(headers, remoteAddress);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(401);
      expect(answer.json()).toEqual({ message: METRICS_TOKEN_WRONG });
    }
    const answer = await scrapeWith({ authorization: `Bearer ${TOKEN}` });
    expect(answer.statusCode).toBe(200);
    expect(sampleValue(parseExposition(answer.body), 'portal_database_up')).toBe(1);
  });

  it('keeps each app to its own registry, with the process metrics in each', async () => {
    const t = await testApp;
    expect((await t.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    // Another app in the same process: its metrics must not collide with these.
    const other = new PortalMetrics({ database: t.database, clock: t.clock, log: t.app.log });
    const [mine, theirs] = [await scrape(t.app), parseExposition(await other.exposition())];
    for (const exposition of [mine, theirs]) {
      expect(sampleValue(exposition, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(sampleValue(exposition, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    }
    const health = { method: 'GET', route: '/health', status_code: '200' };
    expect(sampleValue(mine, REQUESTS, health)).toBe(1);
    expect(sampleValue(theirs, REQUESTS, health)).toBeUndefined();
  });
});

describe('GET /metrics: what it counts', () => {
  const testApp = createWalletTestApp({ secondFactor });
  const login = async (usernameOrEmail: string, password: string) =>
    (
      await (
        await testApp
      ).app.inject({
        method: 'POST',
        url: LOGIN,
        payload: { usernameOrEmail, password },
        remoteAddress: nextIp(),
      })
    ).statusCode;

  it('refuses anyone else when no token is set, a proxied loopback caller too', async () => {
    const { app } = await testApp;
    for (const request of [
      { remoteAddress: REMOTE },
      { remoteAddress: REMOTE, headers: { authorization: `Bearer ${TOKEN}` } },
      { remoteAddress: '127.0.0.1', headers: { forwarded: `for=${REMOTE}` } },
    ]) {
      const answer = await app.inject({ method: 'GET', url: '/metrics', ...request });
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ message: METRICS_LOCAL_ONLY });
    }
  });

  it('sign-in outcomes, account locks and the requests by route pattern and status', async () => {
    const { app } = await testApp;
    const user = await createUser(await testApp);
    const guarded = await createUser(await testApp);
    withSecondFactor.add(guarded.id);
    const locked = await createUser(await testApp);

    expect(await login(user.userName, DEFAULT_PASSWORD)).toBe(200);
    expect(await login(user.userName, 'Wrong-Pass1')).toBe(401);
    expect(await login(guarded.email, DEFAULT_PASSWORD)).toBe(200);
    // The tenth wrong password starts the account's wait; the eleventh try is refused unchecked.
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await login(locked.userName, 'Wrong-Pass1')).toBe(401);
    }
    expect(await login(locked.userName, DEFAULT_PASSWORD)).toBe(429);

    const exposition = await scrape(app);
    const signIns = (outcome: string) =>
      sampleValue(exposition, 'portal_sign_ins_total', { outcome });
    expect(signIns('success')).toBe(1);
    expect(signIns('wrong_password')).toBe(11);
    expect(signIns('second_factor_asked')).toBe(1);
    expect(signIns('account_waiting')).toBe(1);
    expect(signIns('wrong_second_factor')).toBe(0);
    expect(sampleValue(exposition, 'portal_account_locks_total')).toBe(1);

    const requests = (status_code: string) =>
      sampleValue(exposition, REQUESTS, { method: 'POST', route: LOGIN, status_code });
    expect(requests('200')).toBe(2);
    expect(requests('401')).toBe(11);
    expect(requests('429')).toBe(1);
    expect(exposition.types.get('portal_http_request_duration_seconds')).toBe('histogram');
    const ok = { route: LOGIN, status_code: '200' };
    const buckets = seriesOf(exposition, 'portal_http_request_duration_seconds_bucket', ok);
    expect(buckets.find((bucket) => bucket.labels.le === '+Inf')?.value).toBe(2);
    // Each sign-in checks an argon2 hash: none of them answered within a millisecond.
    expect(buckets.find((bucket) => bucket.labels.le === '0.001')?.value).toBe(0);
    expect(sampleValue(exposition, 'portal_http_request_duration_seconds_sum', ok)).toBeGreaterThan(
      0,
    );
  });

  it('labels a request by its route pattern: no ids or tokens, one series for unknown paths', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const created = await requestTopUp(t, { user, headers }, 500);
    expect(created.statusCode).toBe(200);
    const pageUrl: string = created.json().data.paymentUrl;
    const checkoutKey = pageUrl.split('/').at(-1)!;
    expect((await pressSandboxButton(t.app, pageUrl, 'pay')).statusCode).toBe(303);
    for (const path of ['/authms/api/no-such-call/abc123', '/paymentms/api/nothing-here']) {
      expect((await t.app.inject({ method: 'POST', url: path })).statusCode).toBe(404);
    }

    const answer = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.body).not.toContain(checkoutKey);
    expect(answer.body).not.toContain(user.id);
    expect(answer.body).not.toContain('abc123');
    const exposition = parseExposition(answer.body);
    const checkout = seriesOf(exposition, REQUESTS).filter((sample) =>
      sample.labels.route?.startsWith('/sandbox/tbank/pay/'),
    );
    expect(checkout.map((sample) => [sample.labels.method, sample.labels.route])).toEqual(
      expect.arrayContaining([['GET', expect.stringMatching(/^\/sandbox\/tbank\/pay\/:\w+$/)]]),
    );
    expect(
      sampleValue(exposition, REQUESTS, { method: 'POST', route: 'unmatched', status_code: '404' }),
    ).toBe(2);
  });

  it('the session cache: a first check misses, the next one hits', async () => {
    const t = await testApp;
    const { headers } = await createSignedInUser(t);
    const lookups = async () => {
      const exposition = await scrape(t.app);
      return {
        hit: sampleValue(exposition, 'portal_session_cache_lookups_total', { result: 'hit' })!,
        miss: sampleValue(exposition, 'portal_session_cache_lookups_total', { result: 'miss' })!,
      };
    };
    const before = await lookups();
    for (let call = 0; call < 3; call++) {
      expect(
        (await t.app.inject({ method: 'POST', url: `${AUTH_API}/user`, headers })).statusCode,
      ).toBe(200);
    }
    const after = await lookups();
    expect(after.miss - before.miss).toBe(1);
    expect(after.hit - before.hit).toBe(2);
  });

  it('payments by status, letters pending and failed, ages: read from the database at scrape time', async () => {
    const t = await testApp;
    // The readings of earlier scrapes are remembered a while; start from fresh ones.
    t.clock.advance(READINGS_TTL_MS);
    const before = await scrape(t.app);
    const payments = (status: string) => sampleValue(before, 'portal_payments', { status });
    // The earlier test's top-up was paid.
    expect(payments('CONFIRMED')).toBe(1);
    expect(payments('NEW')).toBeUndefined();
    expect(sampleValue(before, 'portal_payments_oldest_unsettled_age_seconds')).toBe(0);

    const { user, headers } = await createSignedInUser(t);
    expect((await requestTopUp(t, { user, headers }, 700)).statusCode).toBe(200);
    const now = t.clock.now().getTime();
    // Not due for an hour: the running sender leaves them be.
    const letter = {
      toAddress: 'someone@example.com',
      subject: 'Тема',
      textBody: 'текст',
      htmlBody: '<p>текст</p>',
      nextAttemptAt: new Date(now + 60 * MINUTE),
    };
    await t.database.db.insert(mailOutbox).values([
      { ...letter, status: 'pending', createdAt: new Date(now - 7 * MINUTE) },
      { ...letter, status: 'pending', createdAt: new Date(now - 2 * MINUTE) },
      { ...letter, status: 'failed', createdAt: new Date(now - 90 * MINUTE) },
      { ...letter, status: 'expired', createdAt: new Date(now - 95 * MINUTE) },
      { ...letter, status: 'expired', createdAt: new Date(now - 96 * MINUTE) },
      { ...letter, status: 'sent', createdAt: new Date(now - 200 * MINUTE) },
    ]);

    // Remembered: the same answer until the readings are READINGS_TTL_MS old.
    t.clock.advance(READINGS_TTL_MS - 1);
    const cached = await scrape(t.app);
    expect(sampleValue(cached, 'portal_payments', { status: 'NEW' })).toBeUndefined();
    expect(sampleValue(cached, 'portal_mail_letters_pending')).toBe(0);

    t.clock.advance(10 * MINUTE);
    const after = await scrape(t.app);
    expect(sampleValue(after, 'portal_payments', { status: 'NEW' })).toBe(1);
    expect(sampleValue(after, 'portal_payments', { status: 'CONFIRMED' })).toBe(1);
    expect(sampleValue(after, 'portal_payments_oldest_unsettled_age_seconds')).toBeCloseTo(
      (10 * MINUTE + READINGS_TTL_MS - 1) / 1000,
      0,
    );
    expect(sampleValue(after, 'portal_mail_letters_pending')).toBe(2);
    expect(sampleValue(after, 'portal_mail_letters_failed')).toBe(1);
    expect(sampleValue(after, 'portal_mail_letters_expired')).toBe(2);
    expect(sampleValue(after, 'portal_mail_oldest_pending_age_seconds')).toBe(
      Math.floor((17 * MINUTE + READINGS_TTL_MS - 1) / 1000),
    );
    expect(sampleValue(after, 'portal_database_up')).toBe(1);
    expect(seriesOf(after, 'portal_redis_up')).toEqual([]);
  });

  it('reconciliation runs and what they found', async () => {
    const { app } = await testApp;
    const run = (result: Record<string, number>) =>
      app.deps.metrics.countReconciliation(async () => result);
    await run({ checked: 3, changed: 1, failed: 1 });
    await run({ checked: 2, changed: 0, failed: 0 });
    await expect(
      app.deps.metrics.countReconciliation(async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
    const exposition = await scrape(app);
    const payments = (result: string) =>
      sampleValue(exposition, 'portal_reconciliation_payments_total', { result });
    expect([payments('checked'), payments('changed'), payments('failed')]).toEqual([5, 1, 1]);
    const runs = (result: string) =>
      sampleValue(exposition, 'portal_reconciliation_runs_total', { result });
    expect([runs('done'), runs('error')]).toEqual([2, 1]);
  });

  it('a database that does not answer: down within the deadline, asked once per few seconds, its readings left out', async () => {
    const t = await testApp;
    let pings = 0;
    const metrics = new PortalMetrics({
      database: {
        ...t.database,
        ping: () => {
          pings++;
          return new Promise<void>(() => {});
        },
      },
      clock: t.clock,
      log: t.app.log,
      redisUp: async () => false,
    });
    // Two scrapes at once share one read; without the deadline they would wait forever.
    const [first] = await Promise.all([metrics.exposition(), metrics.exposition()]);
    expect(pings).toBe(1);
    const exposition = parseExposition(first);
    expect(sampleValue(exposition, 'portal_database_up')).toBe(0);
    expect(sampleValue(exposition, 'portal_redis_up')).toBe(0);
    for (const name of [
      'portal_mail_letters_pending',
      'portal_mail_letters_failed',
      'portal_mail_letters_expired',
      'portal_mail_oldest_pending_age_seconds',
      'portal_payments',
      'portal_payments_oldest_unsettled_age_seconds',
    ]) {
      expect(seriesOf(exposition, name), name).toEqual([]);
    }
    await metrics.exposition();
    expect(pings).toBe(1);
    t.clock.advance(READINGS_TTL_MS);
    await metrics.exposition();
    expect(pings).toBe(2);
  });
});

describe('GET /metrics with REDIS_URL', () => {
  it("reports whether the process's Redis connection answers", async () => {
    const t = await createTestApp({
      config: { REDIS_URL },
    });
    try {
      await waitFor('Redis to answer', () => t.app.deps.redis?.isUp());
      const exposition = await scrape(t.app);
      expect(sampleValue(exposition, 'portal_redis_up')).toBe(1);
    } finally {
      await t.app.close();
      await t.database.close();
    }
  });
});
