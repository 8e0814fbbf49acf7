import { createHash } from 'node:crypto';
import { CODE_WRONG, YANDEX_SIGN_IN_CODE_REFUSED } from '@portal/contracts/messages';
import { PASSKEY_MESSAGES } from '@portal/contracts/passkeys';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addPasskey,
  nextTotpStep,
  otherCode,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import { DateMovingClock } from '../../../test/support/date-clock.js';
import { type FakeYandexAccount, startFakeYandex } from '../../../test/support/fake-yandex.js';
import { createSignedInUser, createUser } from '../../../test/support/fixtures.js';
import { securityEventsOf } from '../../../test/support/security-log.js';
import { PORTAL, SoftwarePasskey } from '../../../test/support/software-authenticator.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { buildApp } from '../../app.js';
import { users } from '../accounts/schema.js';
import { loginThrottles, sessions } from '../auth/schema.js';
import { totpCode } from '../two-factor/index.js';
import { YANDEX_MESSAGES } from './messages.js';
import { STATE_TTL_MS } from './oauth-state.js';
import { FLOW_COOKIE } from './routes.js';
import { SIGN_IN_CODE_TTL_MS } from './sign-in-flows.js';

const fake = await startFakeYandex();
afterAll(() => fake.close());
const testApp = await createTestApp({
  config: fake.config,
  // The exchanges' limit per address counts in memory, by `Date`: the clock moves it too.
  clock: new DateMovingClock(),
});
const { app, clock, config, database } = testApp;

let nextId = 1;
const account = (overrides: Partial<FakeYandexAccount> = {}): FakeYandexAccount => {
  const id = `${9_000_000 + nextId++}`;
  return {
    id,
    login: `ya.user${id}`,
    default_email: `ya${id}@yandex.ru`,
    first_name: 'Алексей',
    last_name: 'Смирнов',
    ...overrides,
  };
};

/** getUrl → the stand-in's authorize page → /oauth#… as the browser sees it. */
async function startSignIn(headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url: '/auth/yandex/getUrl', headers });
  expect(response.statusCode).toBe(200);
  const { status, data } = response.json<{ status: string; data: { url: string } }>();
  expect(status).toBe('ok');
  const setCookie = String(response.headers['set-cookie']);
  const cookie = setCookie.split(';')[0]!;
  const authorize = await fetch(data.url, { redirect: 'manual' });
  expect(authorize.status).toBe(302);
  const back = new URL(authorize.headers.get('location')!);
  return { url: new URL(data.url), setCookie, cookie, back };
}

/** What the portal's /oauth page does: the fragment as the callback's query string. */
function callback(back: URL, cookie: string | undefined) {
  const query = new URLSearchParams(back.hash.slice(1)).toString();
  return app.inject({
    method: 'GET',
    url: `/auth/yandex/callback?${query}`,
    headers: cookie ? { cookie } : {},
  });
}

function redirectOf(response: { statusCode: number; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(302);
  return new URL(String(response.headers.location));
}

async function tokenUser(token: string) {
  const me = await app.inject({
    method: 'POST',
    url: '/authms/api/Auth/user',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(me.statusCode).toBe(200);
  return me.json<{ id: string; email: string; yandexId: string; userName: string }>();
}

let nextIp = 1;
/** Each exchange from its own address unless told, so the per-address limit stays out of the way. */
function exchange(
  code: string | null,
  cookie: string | undefined,
  remoteAddress?: string,
  twoFactorCode?: string,
  portal: FastifyInstance = app,
) {
  return portal.inject({
    method: 'POST',
    url: '/auth/yandex/exchange',
    payload: { code, ...(twoFactorCode === undefined ? {} : { twoFactorCode }) },
    headers: cookie ? { cookie } : {},
    remoteAddress: remoteAddress ?? `198.51.100.${nextIp++ % 250}`,
  });
}

/** A sign-in up to /auth?yandexCode=: the code and the browser's cookie. */
async function codeFor(yandex = account()) {
  fake.signInAs(yandex);
  const { back, cookie } = await startSignIn();
  const code = redirectOf(await callback(back, cookie)).searchParams.get('yandexCode')!;
  expect(code).toBeTruthy();
  return { code, cookie };
}

/** The whole sign-in as a browser makes it: the code from /auth?yandexCode=, then the exchange. */
async function signInThroughYandex(yandex: FakeYandexAccount) {
  const { code, cookie } = await codeFor(yandex);
  const answer = await exchange(code, cookie);
  expect(answer.statusCode).toBe(200);
  return answer.json<{ token: string; userId: string }>();
}

/** An account linked to a new Yandex ID, the authenticator on, the clock at an unused step. */
async function linkedWithAuthenticator() {
  const yandex = account();
  const { user, headers } = await createSignedInUser(testApp, { yandexId: yandex.id });
  const secret = await turnOnAuthenticator(testApp, headers);
  nextTotpStep(clock);
  return { yandex, user, secret };
}

function expectRefusedExchange(response: Awaited<ReturnType<typeof exchange>>) {
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({
    message: YANDEX_SIGN_IN_CODE_REFUSED,
    errors: { code: [YANDEX_SIGN_IN_CODE_REFUSED] },
  });
}

describe('/auth/yandex/getUrl', () => {
  it('answers the implicit-flow authorize URL with a signed state and sets the flow cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
    const { data } = response.json();
    const url = new URL(data.url);
    expect(`${url.origin}${url.pathname}`).toBe(fake.authorizeUrl);
    expect(url.searchParams.get('response_type')).toBe('token');
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${config.PUBLIC_URL}/oauth`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${FLOW_COOKIE}=[A-Za-z0-9_-]{43};`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/auth/yandex');
    expect(cookie).toContain(`Max-Age=${STATE_TTL_MS / 1000}`);
    expect(cookie).not.toContain('Secure');
    // The state travels through URLs (Yandex, history, logs): it carries the flow id's hash only.
    const flowId = cookie.split(';')[0]!.split('=')[1]!;
    const state = url.searchParams.get('state')!;
    const body = JSON.parse(Buffer.from(state.split('.')[0]!, 'base64url').toString());
    expect(state).not.toContain(flowId);
    expect(body.flowHash).toBe(createHash('sha256').update(flowId).digest('hex'));
  });

  it('marks the flow cookie Secure when the portal is served over HTTPS', async () => {
    const https = await createTestApp({
      config: { ...testApp.config, PUBLIC_URL: 'https://portal.example.com' },
    });
    const response = await https.app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
    // An attribute of its own, wherever the serialiser (@fastify/cookie) puts it.
    expect(String(response.headers['set-cookie'])).toMatch(/; Secure(;|$)/);
  });

  it('answers 503 when Yandex ID is not configured', async () => {
    const bare = await createTestApp();
    const response = await bare.app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: YANDEX_MESSAGES.notConfigured });
  });
});

describe('/auth/yandex/callback', () => {
  it('creates an account for a new confirmed e-mail; /auth gets a code, the exchange a session', async () => {
    const yandex = account({ login: 'alexey.smirnov' });
    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn();
    expect(`${back.origin}${back.pathname}`).toBe(`${config.PUBLIC_URL}/oauth`);

    const response = await callback(back, cookie);
    const location = redirectOf(response);
    expect(`${location.origin}${location.pathname}`).toBe(`${config.PUBLIC_URL}/auth`);
    // No session token in the URL: only the code, which is no bearer token.
    expect([...location.searchParams.keys()]).toEqual(['yandexCode']);
    const code = location.searchParams.get('yandexCode')!;
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/authms/api/Auth/user',
          headers: { authorization: `Bearer ${code}` },
        })
      ).statusCode,
    ).toBe(401);
    // The flow cookie stays for the exchange, one code lifetime long.
    const kept = String(response.headers['set-cookie']);
    expect(kept.startsWith(`${cookie};`)).toBe(true);
    expect(kept).toContain(`Max-Age=${SIGN_IN_CODE_TTL_MS / 1000}`);

    const exchanged = await exchange(code, cookie);
    expect(exchanged.statusCode).toBe(200);
    expect(String(exchanged.headers['set-cookie'])).toContain('Max-Age=0');
    const { token, userId } = exchanged.json<{ token: string; userId: string }>();
    const user = await tokenUser(token);
    expect(user.id).toBe(userId);
    expect(user).toMatchObject({
      email: yandex.default_email,
      yandexId: yandex.id,
      userName: 'alexey.smirnov',
    });
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.confirmedAt).not.toBeNull();
    expect(row?.passwordHash).toBeNull();
    expect([row?.firstName, row?.lastName]).toEqual(['Алексей', 'Смирнов']);
    // The profile was read with the token in the header the Yandex docs prescribe.
    expect(fake.infoRequests.at(-1)?.authorization).toMatch(/^OAuth y0_/);
  });

  it('takes invisible and direction-changing characters out of the names a profile brings', async () => {
    const yandex = account({ first_name: 'Але\u202Eксей\u200B', last_name: '\u0007Смирнов' });
    const { token } = await signInThroughYandex(yandex);
    const { id } = await tokenUser(token);
    const [row] = await database.db.select().from(users).where(eq(users.id, id));
    expect([row?.firstName, row?.lastName]).toEqual(['Алексей', 'Смирнов']);
  });

  it('takes a profile name that renders as nothing for no name: the next one stands in', async () => {
    const yandex = account({ first_name: '\u0301\u0301', last_name: '\u3164\ufe0f' });
    const { token } = await signInThroughYandex(yandex);
    const { id } = await tokenUser(token);
    const [row] = await database.db.select().from(users).where(eq(users.id, id));
    // The stand-in's display name is the Yandex login.
    expect([row?.firstName, row?.lastName]).toEqual([yandex.login, '']);
  });

  it('signs in the user already linked to that Yandex id', async () => {
    const yandex = account();
    const linked = await createUser(testApp, { yandexId: yandex.id });
    const { token } = await signInThroughYandex(yandex);
    expect((await tokenUser(token)).id).toBe(linked.id);
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, linked.id));
    expect(rows).toHaveLength(1);
    expect(await securityEventsOf(testApp, linked.id)).toMatchObject([
      { kind: 'sign_in', details: { method: 'yandex' }, ipAddress: expect.any(String) },
    ]);
  });

  it('asks an account with the authenticator on for its code, as login does, and counts wrong codes in the account lock', async () => {
    const { yandex, user, secret } = await linkedWithAuthenticator();

    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn();
    const location = redirectOf(await callback(back, cookie));
    expect(location.searchParams.get('yandexError')).toBeNull();
    const code = location.searchParams.get('yandexCode')!;
    expect(code).toBeTruthy();

    // The Yandex sign-in stands in for the password, not for the code: asked for, nothing spent.
    const asked = await exchange(code, cookie);
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ requiresTwoFactor: true });
    expect(asked.headers['set-cookie']).toBeUndefined();
    const sessionsOf = () =>
      database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    const before = (await sessionsOf()).length;

    // Typing the code takes longer than a minute; the code waits for it.
    clock.advance(2 * 60_000);
    const wrong = await exchange(code, cookie, undefined, otherCode(totpCode(secret, clock.now())));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: CODE_WRONG, errors: { twoFactorCode: [CODE_WRONG] } });
    const [lock] = await database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, `user:${user.id}`));
    expect(lock?.failures).toBe(1);

    const right = await exchange(code, cookie, undefined, totpCode(secret, clock.now()));
    expect(right.statusCode).toBe(200);
    const { token } = right.json<{ token: string }>();
    expect((await tokenUser(token)).id).toBe(user.id);
    expect(await sessionsOf()).toHaveLength(before + 1);
    expect((await securityEventsOf(testApp, user.id))[0]).toMatchObject({
      kind: 'sign_in',
      details: { method: 'yandex', secondFactor: 'authenticator' },
    });
    // Single use, as ever; the right code also cleared the account's count.
    expectRefusedExchange(await exchange(code, cookie, undefined, totpCode(secret, clock.now())));
    const [cleared] = await database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, `user:${user.id}`));
    expect(cleared?.failures ?? 0).toBe(0);
  });

  it('locks the account after ten wrong codes through Yandex, as after ten at the password sign-in', async () => {
    const { yandex, secret } = await linkedWithAuthenticator();
    const { code, cookie } = await codeFor(yandex);
    const wrongCode = otherCode(totpCode(secret, clock.now()));
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await exchange(code, cookie, undefined, wrongCode)).statusCode).toBe(400);
    }
    const locked = await exchange(code, cookie, undefined, totpCode(secret, clock.now()));
    expect(locked.statusCode).toBe(429);
    // The same words as the password's form, with the minutes left.
    expect(locked.json()).toMatchObject({
      reason: 'login_paused',
      message: expect.stringMatching(/^Вход для этого логина приостановлен на \d+ мин/),
    });
  });

  it('gives an account without the authenticator no second step, and its code a minute', async () => {
    const yandex = account();
    await createUser(testApp, { yandexId: yandex.id });
    const { code, cookie } = await codeFor(yandex);
    // A second-factor code sent along changes nothing.
    clock.advance(SIGN_IN_CODE_TTL_MS);
    expectRefusedExchange(await exchange(code, cookie, undefined, '123456'));
  });

  it('never takes over an existing account by its e-mail', async () => {
    const yandex = account();
    const owner = await createUser(testApp, { email: yandex.default_email! });
    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn();
    const location = redirectOf(await callback(back, cookie));
    expect(location.pathname).toBe('/auth');
    expect(location.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.emailTaken);
    expect(location.searchParams.get('yandexCode')).toBeNull();
    const [row] = await database.db.select().from(users).where(eq(users.id, owner.id));
    expect(row?.yandexId).toBeNull();
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, owner.id))).toEqual(
      [],
    );
  });

  it('refuses a Yandex account without an e-mail', async () => {
    const { default_email: _, ...noEmail } = account();
    fake.signInAs(noEmail);
    const { back, cookie } = await startSignIn();
    const location = redirectOf(await callback(back, cookie));
    expect(location.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.noEmail);
  });

  it('links Yandex ID to the signed-in user who asked, and refuses an id linked elsewhere', async () => {
    // Linking needs a session that has just proved its owner (auth/recent-proof.ts).
    const { user, headers } = await createSignedInUser(testApp, {}, { isProven: true });
    const yandex = account();
    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn(headers);
    const location = redirectOf(await callback(back, cookie));
    expect(location.pathname).toBe('/profile');
    expect(location.searchParams.get('yandexLinked')).toBe('1');
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.yandexId).toBe(yandex.id);
    expect(await securityEventsOf(testApp, user.id)).toMatchObject([{ kind: 'yandex_linked' }]);

    const second = await createSignedInUser(testApp, {}, { isProven: true });
    const again = await startSignIn(second.headers);
    const refused = redirectOf(await callback(again.back, again.cookie));
    expect(refused.pathname).toBe('/profile');
    expect(refused.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.yandexTaken);
    expect(await securityEventsOf(testApp, second.user.id)).toEqual([]);
  });

  it('refuses a tampered state, a missing or foreign cookie, and an expired state', async () => {
    fake.signInAs(account());
    const expectStale = async (response: Awaited<ReturnType<typeof callback>>) => {
      const location = redirectOf(response);
      expect(location.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.stale);
      expect(location.searchParams.get('yandexCode')).toBeNull();
    };

    const tampered = await startSignIn();
    const hash = new URLSearchParams(tampered.back.hash.slice(1));
    const [body, signature] = hash.get('state')!.split('.');
    const forged = JSON.parse(Buffer.from(body!, 'base64url').toString());
    forged.userId = '00000000-0000-4000-8000-000000000000';
    hash.set('state', `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`);
    tampered.back.hash = hash.toString();
    await expectStale(await callback(tampered.back, tampered.cookie));

    const noCookie = await startSignIn();
    await expectStale(await callback(noCookie.back, undefined));

    const other = await startSignIn();
    const mine = await startSignIn();
    await expectStale(await callback(mine.back, other.cookie));

    const late = await startSignIn();
    clock.advance(STATE_TTL_MS + 1_000);
    await expectStale(await callback(late.back, late.cookie));
  });

  it('reports a cancelled sign-in and clears the state cookie', async () => {
    fake.denyNext();
    const { back, cookie } = await startSignIn();
    expect(back.hash).toContain('error=access_denied');
    const response = await callback(back, cookie);
    expect(redirectOf(response).searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.cancelled);
    expect(String(response.headers['set-cookie'])).toContain('Max-Age=0');
  });

  it('refuses a token the user-info endpoint rejects, or one issued to another application', async () => {
    fake.signInAs(account());
    const bogus = await startSignIn();
    const hash = new URLSearchParams(bogus.back.hash.slice(1));
    hash.set('access_token', 'y0_not-a-token');
    bogus.back.hash = hash.toString();
    const rejected = redirectOf(await callback(bogus.back, bogus.cookie));
    expect(rejected.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.providerFailed);

    const foreign = await startSignIn();
    const foreignHash = new URLSearchParams(foreign.back.hash.slice(1));
    foreignHash.set('access_token', fake.issueToken(account(), 'some-other-app'));
    foreign.back.hash = foreignHash.toString();
    const refused = redirectOf(await callback(foreign.back, foreign.cookie));
    expect(refused.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.providerFailed);
  });
});

describe('the Yandex state is single use', () => {
  it('refuses a second callback with the same answer, after a sign-in', async () => {
    fake.signInAs(account());
    const { back, cookie } = await startSignIn();
    expect(redirectOf(await callback(back, cookie)).searchParams.get('yandexCode')).toBeTruthy();
    const replay = redirectOf(await callback(back, cookie));
    expect(replay.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.stale);
    expect(replay.searchParams.get('yandexCode')).toBeNull();
  });

  it('refuses a second callback after a refusal, and after a linking', async () => {
    fake.denyNext();
    const denied = await startSignIn();
    await callback(denied.back, denied.cookie);
    // The same state now with a token (as if taken from the log of the first answer).
    const hash = new URLSearchParams(denied.back.hash.slice(1));
    hash.delete('error');
    hash.set('access_token', fake.issueToken(account()));
    denied.back.hash = hash.toString();
    const replay = redirectOf(await callback(denied.back, denied.cookie));
    expect(replay.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.stale);

    const { headers } = await createSignedInUser(testApp, {}, { isProven: true });
    fake.signInAs(account());
    const linking = await startSignIn(headers);
    expect(redirectOf(await callback(linking.back, linking.cookie)).pathname).toBe('/profile');
    const again = redirectOf(await callback(linking.back, linking.cookie));
    expect(again.pathname).toBe('/profile');
    expect(again.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.stale);
  });
});

describe('/auth/yandex/exchange', () => {
  it('refuses the code without the flow cookie or with another browser’s, and keeps it for its own', async () => {
    const { code, cookie } = await codeFor();
    const other = await startSignIn();
    expectRefusedExchange(await exchange(code, undefined));
    expectRefusedExchange(await exchange(code, other.cookie));
    // Another browser's finished flow is no better: its cookie belongs to its own code only.
    const stranger = await codeFor();
    expectRefusedExchange(await exchange(code, stranger.cookie));
    expectRefusedExchange(await exchange(stranger.code, cookie));
    expect((await exchange(code, cookie)).statusCode).toBe(200);
  });

  it('refuses a code used once already', async () => {
    const { code, cookie } = await codeFor();
    expect((await exchange(code, cookie)).statusCode).toBe(200);
    expectRefusedExchange(await exchange(code, cookie));
  });

  it('refuses a code older than a minute (the app clock) and takes one just younger', async () => {
    const young = await codeFor();
    clock.advance(SIGN_IN_CODE_TTL_MS - 1_000);
    expect((await exchange(young.code, young.cookie)).statusCode).toBe(200);

    const old = await codeFor();
    clock.advance(SIGN_IN_CODE_TTL_MS);
    expectRefusedExchange(await exchange(old.code, old.cookie));
  });

  it('refuses an unknown, empty or missing code with the same message', async () => {
    const { cookie } = await codeFor();
    expectRefusedExchange(await exchange('not-a-code', cookie));
    expectRefusedExchange(await exchange('   ', cookie));
    expectRefusedExchange(await exchange(null, cookie));
  });

  it('signs in exactly once when 100 exchanges of one code race', async () => {
    const yandex = account();
    const { code, cookie } = await codeFor(yandex);
    const [user] = await database.db.select().from(users).where(eq(users.yandexId, yandex.id));
    const answers = await Promise.all(Array.from({ length: 100 }, () => exchange(code, cookie)));
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.statusCode !== 200)) {
      expectRefusedExchange(refused);
    }
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, user!.id));
    expect(rows).toHaveLength(1);
  });

  it('limits exchanges per client address', async () => {
    const ip = '203.0.113.77';
    for (let attempt = 0; attempt < 30; attempt++) {
      expect((await exchange('not-a-code', undefined, ip)).statusCode).toBe(400);
    }
    expect((await exchange('not-a-code', undefined, ip)).statusCode).toBe(429);
  });
});

describe('the second step through two processes on one database', () => {
  let processB: FastifyInstance;
  beforeAll(async () => {
    processB = await buildApp({ config, database, clock });
    await processB.ready();
  });
  afterAll(() => processB.close());

  /** An account with the authenticator on and a Yandex code waiting for its second step. */
  async function waitingForCode() {
    const { yandex, user, secret } = await linkedWithAuthenticator();
    const { code, cookie } = await codeFor(yandex);
    expect((await exchange(code, cookie)).json()).toEqual({ requiresTwoFactor: true });
    return { user, secret, code, cookie };
  }

  const sessionsOf = (userId: string) =>
    database.db.select().from(sessions).where(eq(sessions.userId, userId));

  it('signs in once when 100 exchanges with the right code race on both processes', async () => {
    const { user, secret, code, cookie } = await waitingForCode();
    const before = (await sessionsOf(user.id)).length;
    const right = totpCode(secret, clock.now());
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        exchange(code, cookie, undefined, right, i % 2 === 0 ? app : processB),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    expect(await sessionsOf(user.id)).toHaveLength(before + 1);
  });

  it('counts 100 parallel wrong codes on both processes as ten, and both then refuse the right one', async () => {
    const { user, secret, code, cookie } = await waitingForCode();
    const wrong = otherCode(totpCode(secret, clock.now()));
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        exchange(code, cookie, undefined, wrong, i % 2 === 0 ? app : processB),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);
    const [lock] = await database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, `user:${user.id}`));
    expect(lock?.failures).toBe(10);
    for (const portal of [app, processB]) {
      const right = await exchange(code, cookie, undefined, totpCode(secret, clock.now()), portal);
      expect(right.statusCode).toBe(429);
    }
  });

  it('counts 100 parallel wrong passkeys on both processes as ten, and both then refuse the right one', async () => {
    const yandex = account();
    const { user, headers } = await createSignedInUser(testApp, { yandexId: yandex.id });
    const key = await addPasskey(testApp, headers);
    const { code, cookie } = await codeFor(yandex);
    const { passkeyOptions } = (await exchange(code, cookie)).json();
    expect(passkeyOptions).toBeDefined();
    const withPasskey = (passkey: unknown, portal: FastifyInstance) =>
      portal.inject({
        method: 'POST',
        url: '/auth/yandex/exchange',
        payload: { code, passkey },
        headers: { cookie },
        remoteAddress: `198.51.100.${nextIp++ % 250}`,
      });
    // Another key's answer to the asked challenge: wrong for this account whichever checks it.
    const wrong = new SoftwarePasskey().get(passkeyOptions, PORTAL);

    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => withPasskey(wrong, i % 2 === 0 ? app : processB)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);
    for (const answer of answers.filter((each) => each.statusCode === 400)) {
      expect(answer.json().message).toBe(PASSKEY_MESSAGES.secondFactorWrong);
    }
    const [lock] = await database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, `user:${user.id}`));
    expect(lock?.failures).toBe(10);
    for (const portal of [app, processB]) {
      const right = await withPasskey(key.get(passkeyOptions, PORTAL), portal);
      expect(right.statusCode).toBe(429);
    }
  });
});
