import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createUser, signIn } from '../../../test/support/fixtures.js';
import { HOSTING_KEY, SIBLING_CONFIG } from '../../../test/support/sibling-sites.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';
import { sessions } from './schema.js';

const API = '/authms/api/Auth';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await createTestApp({ config: SIBLING_CONFIG });
});

const post = (
  url: string,
  options: { token?: string; payload?: Record<string, unknown>; apiKey?: string } = {},
) =>
  testApp.app.inject({
    method: 'POST',
    url: `${API}${url}`,
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
    },
  });

/** The hosting site redeems a hand-off code, server to server with its key. */
const redeem = (code: string) =>
  post('/verify-token', { payload: { token: code }, apiKey: HOSTING_KEY });

describe('user', () => {
  it('answers the user with every field, money in roubles and whole points', async () => {
    const { user, token } = await createSignedInUser(testApp, {
      phone: '+79031234567',
      middleName: 'Сергеевич',
      avatarUrl: '/uploads/a.png',
      yandexId: 'ya-42',
      telegramId: 5_123_456_789,
      balanceKopecks: 123_456,
      balancePoints: 50,
    });
    const response = await post('/user', { token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      email: user.email,
      phoneNamber: '+79031234567',
      userName: user.userName,
      firstName: 'Иван',
      middleName: 'Сергеевич',
      lastName: 'Петров',
      avatarUrl: '/uploads/a.png',
      isTwoFactorEnabled: false,
      yandexId: 'ya-42',
      telegramId: '5123456789',
      balance: 1234.56,
      balanceStars: 50,
      signInAlertsByEmail: true,
      hasPassword: true,
    });
    expect(response.body).not.toContain('password');
  });

  it('answers nulls for what is not linked', async () => {
    const { token } = await createSignedInUser(testApp);
    expect((await post('/user', { token })).json()).toMatchObject({
      phoneNamber: null,
      avatarUrl: null,
      yandexId: null,
      telegramId: null,
      balance: 0,
      balanceStars: 0,
    });
  });

  it('answers 401 for a missing, malformed, unknown, expired or revoked token', async () => {
    const missing = await post('/user');
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ message: 'Недействительный токен' });
    expect((await post('/user', { token: 'not a token' })).statusCode).toBe(401);
    expect((await post('/user', { token: 'A'.repeat(43) })).statusCode).toBe(401);

    const expiring = await createSignedInUser(testApp);
    testApp.clock.advance(8 * 24 * 3600_000);
    expect((await post('/user', { token: expiring.token })).statusCode).toBe(401);

    const revoked = await createSignedInUser(testApp);
    await testApp.app.deps.sessions.revoke(revoked.user.id, revoked.sessionId);
    expect((await post('/user', { token: revoked.token })).statusCode).toBe(401);

    // A deleted account's sessions go with it.
    const deleted = await createSignedInUser(testApp);
    await testApp.database.db.delete(users).where(eq(users.id, deleted.user.id));
    expect((await post('/user', { token: deleted.token })).statusCode).toBe(401);
  });
});

describe('logout', () => {
  it('ends the current session only; the token then gets 401', async () => {
    const user = await createUser(testApp);
    const first = await signIn(testApp, user.id);
    const second = await signIn(testApp, user.id);
    const response = await post('/logout', { token: first.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Вы вышли из аккаунта' });
    expect((await post('/user', { token: first.token })).statusCode).toBe(401);
    expect((await post('/logout', { token: first.token })).statusCode).toBe(401);
    expect((await post('/user', { token: second.token })).statusCode).toBe(200);
  });

  it('needs a token', async () => {
    expect((await post('/logout')).statusCode).toBe(401);
  });
});

describe('verify-token', () => {
  it('answers the user id of a live access token', async () => {
    const { user, token } = await createSignedInUser(testApp);
    const response = await post('/verify-token', { payload: { token } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ userId: user.id });
  });

  it('answers 401 for an unknown or ended token and 400 for none', async () => {
    expect((await post('/verify-token', { payload: { token: 'x'.repeat(43) } })).statusCode).toBe(
      401,
    );
    const { token } = await createSignedInUser(testApp);
    await post('/logout', { token });
    expect((await post('/verify-token', { payload: { token } })).statusCode).toBe(401);
    const none = await post('/verify-token', { payload: { token: '' } });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Недействительный токен');
  });
});

describe('SSO hand-off', () => {
  const LINK = 'https://hosting.example.com/order?plan=pro';

  async function mint(token: string, link = LINK) {
    return post('/handoff', { token, payload: { link } });
  }

  function codeOf(url: string) {
    return new URL(url).searchParams.get('token')!;
  }

  it('adds a single-use code (not the access token) to an allow-listed link', async () => {
    const { user, token } = await createSignedInUser(testApp);
    const response = await mint(token);
    expect(response.statusCode).toBe(200);
    const url = new URL(response.json().url);
    expect(url.origin).toBe('https://hosting.example.com');
    expect(url.pathname).toBe('/order');
    expect(url.searchParams.get('plan')).toBe('pro');
    const code = url.searchParams.get('token')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(code).not.toBe(token);

    // The sibling redeems it server-to-server: a session of its own.
    const redeemed = await testApp.app.inject({
      method: 'POST',
      url: `${API}/verify-token`,
      payload: { token: code },
      headers: { 'user-agent': 'hosting-backend/1.0', 'x-api-key': HOSTING_KEY },
      remoteAddress: '198.51.100.20',
    });
    expect(redeemed.statusCode).toBe(200);
    const body = redeemed.json();
    expect(body).toEqual({ userId: user.id, token: expect.any(String) });
    expect(body.token).not.toBe(token);
    const rows = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    expect(rows.find((row) => row.clientOrigin === 'https://hosting.example.com')).toMatchObject({
      userAgent: 'hosting-backend/1.0',
      ipAddress: '198.51.100.20',
    });
    // The sibling's token is an access token like any other.
    expect((await post('/verify-token', { payload: { token: body.token } })).json()).toEqual({
      userId: user.id,
    });
  });

  it('refuses a code used twice and revokes the session the first use issued', async () => {
    const { token } = await createSignedInUser(testApp);
    const code = codeOf((await mint(token)).json().url);
    const first = await redeem(code);
    expect(first.statusCode).toBe(200);
    const siblingToken = first.json().token;
    expect((await post('/user', { token: siblingToken })).statusCode).toBe(200);

    const second = await redeem(code);
    expect(second.statusCode).toBe(401);
    expect(second.json()).toEqual({ message: 'Недействительный токен' });
    expect((await post('/user', { token: siblingToken })).statusCode).toBe(401);
    // The portal's own session is untouched.
    expect((await post('/user', { token })).statusCode).toBe(200);
  });

  it('redeems a code once when two redemptions race', async () => {
    const { token } = await createSignedInUser(testApp);
    const code = codeOf((await mint(token)).json().url);
    const answers = await Promise.all([redeem(code), redeem(code)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
  });

  it('lets a code expire after 60 seconds', async () => {
    const { token } = await createSignedInUser(testApp);
    const code = codeOf((await mint(token)).json().url);
    testApp.clock.advance(61_000);
    expect((await redeem(code)).statusCode).toBe(401);
  });

  it('refuses a link off the allow-list, and needs a signed-in user', async () => {
    const { token } = await createSignedInUser(testApp);
    for (const link of [
      'https://evil.example.com/?x=1',
      'https://hosting.example.com.evil.example/',
      'http://hosting.example.com/',
      'https://hosting.example.com:8443/',
    ]) {
      const response = await mint(token, link);
      expect(response.statusCode, link).toBe(400);
      expect(response.json()).toEqual({
        message: 'Переход по этой ссылке запрещён',
        errors: { link: ['Переход по этой ссылке запрещён'] },
      });
    }
    expect((await mint(token, 'javascript:alert(1)')).statusCode).toBe(400);
    expect((await post('/handoff', { payload: { link: LINK } })).statusCode).toBe(401);
  });
});

describe('sessions', () => {
  it('write last activity at most once a minute', async () => {
    const { token, sessionId } = await createSignedInUser(testApp);
    const lastActivity = async () => {
      const [row] = await testApp.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, sessionId));
      return row!.lastActivityAt.getTime();
    };
    const created = await lastActivity();
    testApp.clock.advance(30_000);
    await post('/user', { token });
    expect(await lastActivity()).toBe(created);
    testApp.clock.advance(31_000);
    await post('/user', { token });
    expect(await lastActivity()).toBe(created + 61_000);
  });
});

describe('OpenAPI', () => {
  it('describes every identity route with its answers, tagged auth', async () => {
    const document = (await testApp.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const expected: Record<string, string[]> = {
      register: ['200', '400', '409', '429'],
      'verify-registration': ['200', '400', '403', '429'],
      login: ['200', '400', '401', '403', '429'],
      logout: ['200', '401'],
      user: ['200', '401'],
      'verify-token': ['200', '400', '401', '403', '429'],
      handoff: ['200', '400', '401', '403'],
    };
    for (const [name, statuses] of Object.entries(expected)) {
      const operation = document.paths[`${API}/${name}`]?.post;
      expect(operation?.tags, name).toEqual(['auth']);
      expect(Object.keys(operation?.responses ?? {}).sort(), name).toEqual(statuses);
    }
    expect(document.paths['/dev/mail/letters']?.get?.tags).toEqual(['dev']);
  });
});
