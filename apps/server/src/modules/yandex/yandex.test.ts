import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { turnOnAuthenticator } from '../../../test/auth-helpers.js';
import { type FakeYandexAccount, startFakeYandex } from '../../../test/fake-yandex.js';
import { createSignedInUser, createUser } from '../../../test/fixtures.js';
import { createTestApp } from '../../../test/test-app.js';
import { sessions, users } from '../auth/schema.js';
import { YANDEX_MESSAGES } from './messages.js';
import { STATE_TTL_MS } from './oauth-state.js';
import { STATE_COOKIE } from './routes.js';

const fake = await startFakeYandex();
afterAll(() => fake.close());
const testApp = await createTestApp({
  config: {
    YANDEX_CLIENT_ID: fake.clientId,
    YANDEX_AUTHORIZE_URL: fake.authorizeUrl,
    YANDEX_USERINFO_URL: fake.userInfoUrl,
  },
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

describe('/auth/yandex/getUrl', () => {
  it('answers the implicit-flow authorize URL with a signed state and sets the state cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
    const { data } = response.json();
    const url = new URL(data.url);
    expect(`${url.origin}${url.pathname}`).toBe(fake.authorizeUrl);
    expect(url.searchParams.get('response_type')).toBe('token');
    expect(url.searchParams.get('client_id')).toBe(fake.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${config.PUBLIC_URL}/oauth`);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^${STATE_COOKIE}=[A-Za-z0-9_-]+;`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
  });

  it('answers 503 when Yandex ID is not configured', async () => {
    const bare = await createTestApp();
    const response = await bare.app.inject({ method: 'GET', url: '/auth/yandex/getUrl' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: YANDEX_MESSAGES.notConfigured });
  });
});

describe('/auth/yandex/callback', () => {
  it('creates an account for a new confirmed e-mail and signs in with /auth?token=', async () => {
    const yandex = account({ login: 'alexey.smirnov' });
    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn();
    expect(`${back.origin}${back.pathname}`).toBe(`${config.PUBLIC_URL}/oauth`);

    const location = redirectOf(await callback(back, cookie));
    expect(`${location.origin}${location.pathname}`).toBe(`${config.PUBLIC_URL}/auth`);
    const token = location.searchParams.get('token')!;
    const user = await tokenUser(token);
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

  it('signs in the user already linked to that Yandex id', async () => {
    const yandex = account();
    const linked = await createUser(testApp, { yandexId: yandex.id });
    fake.signInAs(yandex);
    const first = await startSignIn();
    const token = redirectOf(await callback(first.back, first.cookie)).searchParams.get('token')!;
    expect((await tokenUser(token)).id).toBe(linked.id);
    const rows = await database.db.select().from(sessions).where(eq(sessions.userId, linked.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses a sign-in to an account with the authenticator on (the code is not skipped)', async () => {
    const yandex = account();
    const { headers } = await createSignedInUser(testApp, { yandexId: yandex.id });
    await turnOnAuthenticator(testApp, headers);

    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn();
    const location = redirectOf(await callback(back, cookie));
    expect(location.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.twoFactorRequired);
    expect(location.searchParams.get('token')).toBeNull();
  });

  it('never takes over an existing account by its e-mail', async () => {
    const yandex = account();
    const owner = await createUser(testApp, { email: yandex.default_email! });
    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn();
    const location = redirectOf(await callback(back, cookie));
    expect(location.pathname).toBe('/auth');
    expect(location.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.emailTaken);
    expect(location.searchParams.get('token')).toBeNull();
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
    const { user, headers } = await createSignedInUser(testApp);
    const yandex = account();
    fake.signInAs(yandex);
    const { back, cookie } = await startSignIn(headers);
    const location = redirectOf(await callback(back, cookie));
    expect(location.pathname).toBe('/profile');
    expect(location.searchParams.get('yandexLinked')).toBe('1');
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.yandexId).toBe(yandex.id);

    const second = await createSignedInUser(testApp);
    const again = await startSignIn(second.headers);
    const refused = redirectOf(await callback(again.back, again.cookie));
    expect(refused.pathname).toBe('/profile');
    expect(refused.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.yandexTaken);
  });

  it('refuses a tampered state, a missing or foreign cookie, and an expired state', async () => {
    fake.signInAs(account());
    const expectStale = async (response: Awaited<ReturnType<typeof callback>>) => {
      const location = redirectOf(response);
      expect(location.searchParams.get('yandexError')).toBe(YANDEX_MESSAGES.stale);
      expect(location.searchParams.get('token')).toBeNull();
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
