import { SIBLING_SERVICE_NAME_FORBIDDEN, SIBLING_URL_NOT_HTTPS } from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DateMovingClock } from '../../../test/support/date-clock.js';
import { createSignedInUser, createUser } from '../../../test/support/fixtures.js';
import {
  HOSTING_KEY,
  introduceToSibling,
  LAUNCHER_KEY,
  orderBody,
  placeOrder,
  SIBLING_CONFIG,
} from '../../../test/support/sibling-sites.js';
import { balancesOf, createWalletTestApp, fundUser } from '../../../test/support/wallet.js';
import { ledgerEntries } from '../payments/schema.js';
import { services } from './schema.js';
import { isShowableUrl } from './sibling-schemas.js';

describe('sibling API: orders charge the wallet', () => {
  // The wrong keys' limit counts in memory, by `Date`: the clock moves it too.
  const testApp = createWalletTestApp({ config: SIBLING_CONFIG, clock: new DateMovingClock() });

  it('creates a service paid partly in points, with 5% cashback on the rouble part', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 200_000, points: 300 });
    const response = await placeOrder(t, orderBody(user.id, { price: 1790, usePoints: true }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      kind: 'purchase',
      charged: { total: 1790, roubles: 1490, points: 300 },
      cashbackPoints: 74,
      balance: 510,
      balanceStars: 74,
      service: {
        amount: 1790,
        message: 'Игровой сервер Minecraft',
        serverCount: 2,
        autoRenew: true,
        status: 'active',
        paidUntil: new Date('2026-12-21T10:00:00Z').toISOString(),
      },
    });
    const balances = await balancesOf(t, user.id);
    expect(balances).toEqual({ kopecks: 51_000, points: 74, ledger: { rub: 51_000, points: 74 } });
    const entries = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(entries.map((entry) => [entry.kind, entry.currency, entry.amount]).sort()).toEqual(
      [
        ['adjustment', 'points', 300],
        ['adjustment', 'rub', 200_000],
        ['cashback', 'points', 74],
        ['purchase', 'points', -300],
        ['purchase', 'rub', -149_000],
      ].sort(),
    );
  });

  it('answers the same to the same order id and charges once, even in parallel', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    const body = orderBody(user.id, { price: 1000 });
    const first = await placeOrder(t, body);
    const again = await placeOrder(t, { ...body, service: { ...body.service } });
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    const parallelBody = orderBody(user.id, { price: 500 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => placeOrder(t, parallelBody)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);

    const balances = await balancesOf(t, user.id);
    expect(balances.kopecks).toBe(1_000_000 - 100_000 - 50_000);
    expect(balances.points).toBe(50 + 25);
    expect(balances.ledger).toEqual({ rub: balances.kopecks, points: balances.points });

    const changed = await placeOrder(t, { ...body, months: 2 });
    expect(changed.statusCode).toBe(409);
    expect((await balancesOf(t, user.id)).kopecks).toBe(balances.kopecks);
  });

  it('refuses when funds are short and changes nothing; the same order succeeds after a top-up', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 100_000, points: 50 });
    const body = orderBody(user.id, { price: 1790, usePoints: true });
    const refused = await placeOrder(t, body);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().message).toBe('Недостаточно средств на балансе');
    expect(await balancesOf(t, user.id)).toEqual({
      kopecks: 100_000,
      points: 50,
      ledger: { rub: 100_000, points: 50 },
    });
    expect(await t.database.db.select().from(services).where(eq(services.userId, user.id))).toEqual(
      [],
    );

    await fundUser(t, user.id, { kopecks: 100_000 });
    const paid = await placeOrder(t, body);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().charged).toEqual({ total: 1790, roubles: 1740, points: 50 });
  });

  it('renews a service ordered again under the same external id, from the end of its period', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    const first = await placeOrder(t, orderBody(user.id, { externalId: 'srv-renew', price: 100 }));
    const renewal = await placeOrder(
      t,
      orderBody(user.id, { externalId: 'srv-renew', price: 100, months: 2 }),
    );
    expect(renewal.json().kind).toBe('renewal');
    expect(first.json().service.paidUntil).toBe('2026-12-21T10:00:00.000Z');
    expect(renewal.json().service.paidUntil).toBe('2027-02-21T10:00:00.000Z');
    expect(renewal.json().charged.total).toBe(200);
    const rows = await t.database.db.select().from(services).where(eq(services.userId, user.id));
    expect(rows).toHaveLength(1);

    const stranger = await createUser(t);
    const taken = await placeOrder(t, orderBody(stranger.id, { externalId: 'srv-renew' }));
    expect(taken.statusCode).toBe(409);
  });

  it('50 parallel charges of 10 ₽ against 100 ₽: exactly 10 succeed and the balance is 0', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 10_000 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        placeOrder(t, orderBody(user.id, { price: 10, externalId: `srv-parallel-${index % 5}` })),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 402)).toHaveLength(40);
    const balances = await balancesOf(t, user.id);
    expect(balances).toEqual({ kopecks: 0, points: 0, ledger: { rub: 0, points: 0 } });
  });

  it('accepts only sibling API keys, never a user token', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const body = orderBody(user.id);
    for (const requestHeaders of [{}, headers, { 'x-api-key': 'wrong-key-0123456789abcdefgh' }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/serversms/api/Sibling/orders',
        headers: requestHeaders,
        payload: body,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe('Неверный ключ API');
    }
  });

  it('refuses a source address after 20 wrong keys, even with the right one', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await introduceToSibling(t, user.id);
    const wrong = { 'x-api-key': 'guess-0123456789abcdefghijkl' };
    // Its own source address, so the other tests' counters do not mix in.
    const remoteAddress = '203.0.113.7';
    const url = `/serversms/api/Sibling/users/${user.id}/wallet`;
    for (let attempt = 0; attempt < 20; attempt++) {
      expect(
        (await t.app.inject({ method: 'GET', url, headers: wrong, remoteAddress })).statusCode,
      ).toBe(401);
    }
    const blocked = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'x-api-key': HOSTING_KEY },
      remoteAddress,
    });
    expect(blocked.statusCode).toBe(429);
    t.clock.advance(11 * 60_000);
    const allowed = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'x-api-key': HOSTING_KEY },
      remoteAddress,
    });
    expect(allowed.statusCode).toBe(200);
  });

  it('keeps each sibling to its own services; updates and reads them', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    await placeOrder(t, orderBody(user.id, { externalId: 'shared-id', name: 'Хостинг' }));
    await placeOrder(
      t,
      orderBody(user.id, { externalId: 'shared-id', name: 'Лаунчер' }),
      LAUNCHER_KEY,
    );

    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/serversms/api/Sibling/services/shared-id',
      headers: { 'x-api-key': LAUNCHER_KEY },
      payload: { autoRenew: false, serverCount: 5 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ message: 'Лаунчер', autoRenew: false, serverCount: 5 });

    const hostingList = await t.app.inject({
      method: 'GET',
      url: `/serversms/api/Sibling/users/${user.id}/services`,
      headers: { 'x-api-key': HOSTING_KEY },
    });
    expect(hostingList.json()).toHaveLength(1);
    expect(hostingList.json()[0]).toMatchObject({
      message: 'Хостинг',
      autoRenew: true,
      serverCount: 2,
    });

    const wallet = await t.app.inject({
      method: 'GET',
      url: `/serversms/api/Sibling/users/${user.id}/wallet`,
      headers: { 'x-api-key': HOSTING_KEY },
    });
    expect(wallet.json()).toEqual({ balance: 10_000 - 1790 * 2, balanceStars: 89 * 2 });

    const mine = await t.app.inject({
      method: 'GET',
      url: '/serversms/api/Servers/owner/services',
      headers,
    });
    expect(mine.statusCode).toBe(200);
    expect(
      mine
        .json()
        .map((service: { message: string }) => service.message)
        .sort(),
    ).toEqual(['Лаунчер', 'Хостинг']);
  });

  it('answers 404 for an unknown user', async () => {
    const t = await testApp;
    const response = await placeOrder(t, orderBody('00000000-0000-4000-8000-000000000000'));
    expect(response.statusCode).toBe(404);
  });
});

describe('sibling API: the links a site gives the portal to show', () => {
  const testApp = createWalletTestApp({ config: SIBLING_CONFIG });
  const localPortal = createWalletTestApp({
    config: { ...SIBLING_CONFIG, PUBLIC_URL: 'http://localhost:3000' },
  });
  const refused = [
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ftp://hosting.example.com/',
    'http://hosting.example.com/servers/1',
    'not a url',
  ];

  it('refuses a manage link that is not https: when ordering, with the reason, and charges nothing', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    for (const manageUrl of refused) {
      const body = orderBody(user.id);
      const response = await placeOrder(t, { ...body, service: { ...body.service, manageUrl } });
      expect(response.statusCode, manageUrl).toBe(400);
      expect(response.json().message, manageUrl).toBe(SIBLING_URL_NOT_HTTPS);
    }
    expect((await balancesOf(t, user.id)).kopecks).toBe(1_000_000);
    const body = orderBody(user.id);
    expect((await placeOrder(t, body)).statusCode).toBe(200);
  });

  it('refuses a service name that would show as nothing or rearrange the text, and charges nothing', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    for (const name of ['Хостинг\u202eтсоХ', '\u200b', 'Хост\u0007инг']) {
      const response = await placeOrder(t, orderBody(user.id, { name }));
      expect(response.statusCode, name).toBe(400);
      expect(response.json().message, name).toBe(SIBLING_SERVICE_NAME_FORBIDDEN);
    }
    expect((await balancesOf(t, user.id)).kopecks).toBe(1_000_000);
    await placeOrder(t, orderBody(user.id, { externalId: 'named' }));
    const patched = await t.app.inject({
      method: 'PATCH',
      url: '/serversms/api/Sibling/services/named',
      headers: { 'x-api-key': HOSTING_KEY },
      payload: { name: 'Сервер\u2066' },
    });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().message).toBe(SIBLING_SERVICE_NAME_FORBIDDEN);
  });

  it('refuses it when a service is changed, and keeps the link it had', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    await placeOrder(t, orderBody(user.id, { externalId: 'links' }));
    for (const manageUrl of refused) {
      const patched = await t.app.inject({
        method: 'PATCH',
        url: '/serversms/api/Sibling/services/links',
        headers: { 'x-api-key': HOSTING_KEY },
        payload: { manageUrl },
      });
      expect(patched.statusCode, manageUrl).toBe(400);
      expect(patched.json().message).toBe(SIBLING_URL_NOT_HTTPS);
    }
    const [row] = await t.database.db.select().from(services).where(eq(services.userId, user.id));
    expect(row?.manageUrl).toBe('https://hosting.example.com/servers/1');
  });

  it('takes an http: link beside a portal run on this machine, and never javascript:', async () => {
    const t = await localPortal;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    const body = orderBody(user.id);
    const local = await placeOrder(t, {
      ...body,
      service: { ...body.service, manageUrl: 'http://localhost:4000/servers/1' },
    });
    expect(local.statusCode, local.body).toBe(200);
    expect(local.json().service.manageUrl).toBe('http://localhost:4000/servers/1');
    const script = await placeOrder(t, {
      ...orderBody(user.id),
      service: { ...body.service, manageUrl: 'javascript:alert(1)' },
    });
    expect(script.statusCode).toBe(400);
  });

  it('decides by the scheme the URL parser reads', () => {
    expect(isShowableUrl('https://hosting.example.com/a', false)).toBe(true);
    expect(isShowableUrl('http://hosting.example.com/a', false)).toBe(false);
    expect(isShowableUrl('http://hosting.example.com/a', true)).toBe(true);
    expect(isShowableUrl('\tjava\nscript:alert(1)', true)).toBe(false);
    expect(isShowableUrl('//hosting.example.com', true)).toBe(false);
  });
});
