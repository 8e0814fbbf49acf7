import { STAFF_API } from '@portal/contracts/staff';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createUser } from '../../../test/support/fixtures.js';
import { routesOf } from '../../../test/support/hostile/route-catalogue.js';
import {
  changedTables,
  createTableChecksum,
} from '../../../test/support/hostile/table-checksum.js';
import {
  HOSTING_KEY,
  LAUNCHER_KEY,
  orderBody,
  placeOrder,
  SIBLING_CONFIG,
} from '../../../test/support/sibling-sites.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { balancesOf, createWalletTestApp, fundUser } from '../../../test/support/wallet.js';
import { services } from '../servers/schema.js';
import { sessions, siblingUsers } from './schema.js';

const API = '/authms/api/Auth';
const HOSTING = 'https://hosting.example.com';
const LAUNCHER = 'https://launcher.example.com';
const PORTAL_ONLY = { message: 'Это действие доступно только в личном кабинете' };
const NO_SUCH_USER = { message: 'Пользователь не найден' };

const testApp = createWalletTestApp({ config: SIBLING_CONFIG });

/** The portal's web app asks for a hand-off link to `origin`; answers the code in it. */
async function mintCode(t: TestApp, portalToken: string, origin = HOSTING) {
  const response = await t.app.inject({
    method: 'POST',
    url: `${API}/handoff`,
    headers: { authorization: `Bearer ${portalToken}` },
    payload: { link: `${origin}/panel` },
  });
  expect(response.statusCode).toBe(200);
  return new URL(response.json().url).searchParams.get('token')!;
}

/** A sibling's server presents a code (or token) at verify-token, with `apiKey` if given. */
function verifyToken(t: TestApp, token: string, apiKey?: string) {
  return t.app.inject({
    method: 'POST',
    url: `${API}/verify-token`,
    headers: apiKey === undefined ? {} : { 'x-api-key': apiKey },
    payload: { token },
  });
}

/** A user signed in on the portal who then went to the sibling: both tokens. */
async function userHandedTo(t: TestApp, origin = HOSTING, key = HOSTING_KEY) {
  const portal = await createSignedInUser(t);
  const redeemed = await verifyToken(t, await mintCode(t, portal.token, origin), key);
  expect(redeemed.statusCode).toBe(200);
  return { ...portal, siblingToken: redeemed.json().token as string };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('redeeming a hand-off code', () => {
  it('without a key is refused and changes nothing: the code still works for its site', async () => {
    const t = await testApp;
    const { user, token } = await createSignedInUser(t);
    const code = await mintCode(t, token);
    const keyless = await verifyToken(t, code);
    expect(keyless.statusCode).toBe(401);
    expect(keyless.json()).toEqual({ message: 'Недействительный токен' });
    const wrongKey = await verifyToken(t, code, 'guess-0123456789abcdefghijkl');
    expect(wrongKey.statusCode).toBe(401);
    expect(wrongKey.json()).toEqual({ message: 'Неверный ключ API' });

    const redeemed = await verifyToken(t, code, HOSTING_KEY);
    expect(redeemed.statusCode).toBe(200);
    expect(redeemed.json()).toEqual({ userId: user.id, token: expect.any(String) });
  });

  it("with another sibling's key is refused and burns the code for its own site too", async () => {
    const t = await testApp;
    const { user, token } = await createSignedInUser(t);
    const code = await mintCode(t, token, HOSTING);
    const foreign = await verifyToken(t, code, LAUNCHER_KEY);
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toEqual({ message: 'Недействительный токен' });
    // Someone else has seen the code: its own site is refused as well.
    expect((await verifyToken(t, code, HOSTING_KEY)).statusCode).toBe(401);
    const handedSessions = await t.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.clientOrigin, HOSTING)));
    expect(handedSessions).toEqual([]);
  });

  it("with its own site's key gives that site a session and remembers the visit", async () => {
    const t = await testApp;
    const { user, siblingToken } = await userHandedTo(t, LAUNCHER, LAUNCHER_KEY);
    const [row] = await t.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.clientOrigin, LAUNCHER)));
    expect(row).toBeDefined();
    const visits = await t.database.db
      .select({ sibling: siblingUsers.sibling })
      .from(siblingUsers)
      .where(eq(siblingUsers.userId, user.id));
    expect(visits).toEqual([{ sibling: 'launcher' }]);
    expect((await verifyToken(t, siblingToken)).json()).toEqual({ userId: user.id });
  });

  it('100 parallel redemptions by both sites give at most one session, to the right site', async () => {
    const t = await testApp;
    const { user, token } = await createSignedInUser(t);
    const code = await mintCode(t, token);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        verifyToken(t, code, index % 2 === 0 ? HOSTING_KEY : LAUNCHER_KEY),
      ),
    );
    const granted = answers.filter((answer) => answer.statusCode === 200);
    expect(granted.length).toBeLessThanOrEqual(1);
    expect(answers.length - granted.length).toBe(
      answers.filter((answer) => answer.statusCode === 401).length,
    );
    const handed = await t.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.clientOrigin, HOSTING)));
    expect(handed.length).toBe(granted.length);
    const foreign = await t.database.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), eq(sessions.clientOrigin, LAUNCHER)));
    expect(foreign).toEqual([]);
  });

  it('an access token answers its user id without a key and is never exchanged for a session', async () => {
    const t = await testApp;
    const { user, token } = await createSignedInUser(t);
    for (const key of [undefined, HOSTING_KEY]) {
      const answer = await verifyToken(t, token, key);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ userId: user.id });
    }
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
  });
});

describe("a sibling site's session", () => {
  /** What a sibling's session may do; every other route with a bearer token is the portal's. */
  const ALLOWED = [
    'POST /authms/api/Auth/user',
    'POST /authms/api/Auth/logout',
    'GET /serversms/api/Servers/owner/services',
  ];
  /** Valid bodies, so that the answer is the guard's and not the body check's. */
  const BODIES: Record<string, unknown> = {
    'POST /paymentms/api/Payment/create': { amount: 100 },
    'POST /paymentms/api/Payment/sbp/qr': { amount: 100 },
    'POST /authms/api/Auth/handoff': { link: `${HOSTING}/panel` },
    'POST /authms/api/Auth/2fa/verify': { code: '123456' },
    'POST /authms/api/Auth/2fa/disable': { code: '123456' },
    'POST /authms/api/Auth/2fa/recovery-codes': { code: '123456' },
    'POST /portal/auth/password/change': {
      oldPassword: 'Secret-Pass1',
      newPassword: 'Another-Pass12',
      code: '123456',
      logoutOtherSessions: true,
    },
    'POST /portal/auth/password/change-code/check': { code: '123456' },
    'PUT /authms/api/Auth/update-profile': {
      firstName: 'Мария',
      userName: 'taken_over',
      middleName: '',
      lastName: 'Иванова',
    },
    'PUT /authms/api/Auth/update-avatar': { avatarUrl: '/uploads/x.png' },
    'POST /authms/api/Auth/email-change/verify-current': { code: '123456' },
    'POST /authms/api/Auth/email-change/new-email': { email: 'attacker@example.com' },
    'POST /authms/api/Auth/email-change/confirm': { code: '123456' },
    'POST /authms/api/Auth/passkeys/registration': {
      name: 'Ключ злоумышленника',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      },
    },
    'PATCH /authms/api/Auth/passkeys/{id}': { name: 'Ключ злоумышленника' },
  };

  it('gets 403 from every portal-only route in the OpenAPI document, and nothing changes', async () => {
    const t = await testApp;
    const { sessionId, siblingToken } = await userHandedTo(t);
    const routes = (await routesOf(t.app)).filter((route) => route.security.includes('bearer'));
    const names = routes.map((route) => `${route.method} ${route.path}`);
    expect(names).toEqual(expect.arrayContaining(ALLOWED));

    const checksum = await createTableChecksum(t.app.deps.db);
    const before = await checksum();
    // The support desk answers anyone but its staff as an unknown address (modules/staff/guard.ts).
    const isStaff = (route: { path: string }) => route.path.startsWith(STAFF_API);
    const unknown = await t.app.inject({
      method: 'GET',
      url: `${STAFF_API}/none-such`,
      headers: bearer(siblingToken),
    });
    for (const route of routes.filter(isStaff)) {
      const answer = await t.app.inject({
        method: route.method as 'GET',
        url: route.path.replace(/\{\w+\}/g, sessionId),
        headers: bearer(siblingToken),
      });
      expect(answer.statusCode, route.path).toBe(404);
      expect(answer.body, route.path).toBe(unknown.body);
    }
    const portalOnly = routes.filter(
      (route) => !ALLOWED.includes(`${route.method} ${route.path}`) && !isStaff(route),
    );
    expect(portalOnly.length).toBeGreaterThan(20);
    for (const route of portalOnly) {
      const name = `${route.method} ${route.path}`;
      const answer = await t.app.inject({
        method: route.method as 'GET',
        url: route.path.replace('{id}', sessionId),
        headers: bearer(siblingToken),
        ...(BODIES[name] === undefined ? {} : { payload: BODIES[name] as object }),
      });
      expect(answer.statusCode, name).toBe(403);
      expect(answer.json(), name).toEqual(PORTAL_ONLY);
    }
    expect(changedTables(before, await checksum())).toEqual([]);

    const document = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const route of portalOnly) {
      const operation = document.paths[route.path][route.method.toLowerCase()];
      expect(Object.keys(operation.responses), `${route.method} ${route.path}`).toContain('403');
    }
  });

  it("reads the user, sees its own site's services only, and signs only itself out", async () => {
    const t = await testApp;
    const { user, token, siblingToken } = await userHandedTo(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    const hosting = await placeOrder(t, orderBody(user.id, { name: 'Сервер хостинга' }));
    const launcher = await placeOrder(
      t,
      orderBody(user.id, { name: 'Сборка лаунчера' }),
      LAUNCHER_KEY,
    );
    expect([hosting.statusCode, launcher.statusCode]).toEqual([200, 200]);

    const read = await t.app.inject({
      method: 'POST',
      url: `${API}/user`,
      headers: bearer(siblingToken),
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: user.id, email: user.email });

    const own = (url: string, authToken: string) =>
      t.app.inject({ method: 'GET', url, headers: bearer(authToken) });
    const servicesUrl = '/serversms/api/Servers/owner/services';
    const siblingView = await own(servicesUrl, siblingToken);
    expect(siblingView.statusCode).toBe(200);
    expect(siblingView.json().map((item: { message: string }) => item.message)).toEqual([
      'Сервер хостинга',
    ]);
    expect((await own(servicesUrl, token)).json()).toHaveLength(2);

    const logout = await t.app.inject({
      method: 'POST',
      url: `${API}/logout`,
      headers: bearer(siblingToken),
    });
    expect(logout.statusCode).toBe(200);
    expect((await verifyToken(t, siblingToken)).statusCode).toBe(401);
    expect((await verifyToken(t, token)).statusCode).toBe(200);
  });
});

describe('the devices list', () => {
  it('names the site of each session: the portal, Хостинг, Лаунчер, or a host', async () => {
    const t = await testApp;
    const { user, token } = await userHandedTo(t);
    t.clock.advance(60_000);
    await verifyToken(t, await mintCode(t, token, LAUNCHER), LAUNCHER_KEY);
    t.clock.advance(60_000);
    await t.app.deps.sessions.create({ userId: user.id, clientOrigin: 'https://old.example:8443' });
    const answer = await t.app.inject({
      method: 'POST',
      url: `${API}/devices`,
      headers: bearer(token),
    });
    expect(answer.statusCode).toBe(200);
    const sites = answer
      .json()
      .map((device: { site: string; isCurrent: boolean }) => [device.site, device.isCurrent]);
    expect(sites).toHaveLength(4);
    expect(sites).toEqual(
      expect.arrayContaining([
        ['Личный кабинет', true],
        ['Хостинг', false],
        ['Лаунчер', false],
        ['old.example:8443', false],
      ]),
    );
  });
});

describe("a sibling's API key", () => {
  const wallet = (userId: string) => `/serversms/api/Sibling/users/${userId}/wallet`;
  const servicesOf = (userId: string) => `/serversms/api/Sibling/users/${userId}/services`;
  const get = (t: TestApp, url: string, key = HOSTING_KEY) =>
    t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

  it('reads only users who signed in through it or hold its services; others are unknown', async () => {
    const t = await testApp;
    const { user: visitor } = await userHandedTo(t);
    const stranger = await createUser(t);
    const unknownId = '00000000-0000-4000-8000-000000000000';

    for (const url of [wallet(visitor.id), servicesOf(visitor.id)]) {
      expect((await get(t, url)).statusCode, url).toBe(200);
      // The launcher has never seen this user.
      const other = await get(t, url, LAUNCHER_KEY);
      expect(other.statusCode, url).toBe(404);
      expect(other.json()).toEqual(NO_SUCH_USER);
    }
    for (const id of [stranger.id, unknownId]) {
      for (const url of [wallet(id), servicesOf(id)]) {
        const answer = await get(t, url);
        expect(answer.statusCode, url).toBe(404);
        expect(answer.json(), url).toEqual(NO_SUCH_USER);
      }
    }

    // A service of the site (bought before the rule) is proof enough.
    await t.database.db.insert(services).values({
      userId: stranger.id,
      sibling: 'hosting',
      externalId: `legacy-${stranger.id}`,
      name: 'Старый сервер',
      serverCount: 1,
      priceKopecks: 179_000,
      paidUntil: t.clock.now(),
    });
    expect((await get(t, wallet(stranger.id))).statusCode).toBe(200);
    expect((await get(t, wallet(stranger.id), LAUNCHER_KEY)).statusCode).toBe(404);
  });

  it('cannot charge a user who never came to it, even with 100 orders at once', async () => {
    const t = await testApp;
    const stranger = await createUser(t);
    await fundUser(t, stranger.id, { kopecks: 500_000, points: 100 });
    const before = await balancesOf(t, stranger.id);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/serversms/api/Sibling/orders',
          headers: { 'x-api-key': HOSTING_KEY },
          payload: orderBody(stranger.id, { price: 10 }),
        }),
      ),
    );
    expect(new Set(answers.map((answer) => answer.statusCode))).toEqual(new Set([404]));
    expect(answers[0]!.json()).toEqual(NO_SUCH_USER);
    expect(await balancesOf(t, stranger.id)).toEqual(before);
    const created = await t.database.db
      .select()
      .from(services)
      .where(eq(services.userId, stranger.id));
    expect(created).toEqual([]);
  });
});
