import { paymentHistoryAnswerSchema } from '@portal/contracts/wallet';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { orderBody, placeOrder, SIBLING_CONFIG } from '../../../test/support/sibling-sites.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  createWalletTestApp,
  fundUser,
  pressSandboxButton,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { listHistory } from './history.js';
import { payments } from './schema.js';

const HISTORY = '/payments/payments/user';
const MINUTE = 60_000;

async function history(t: TestApp, headers: Record<string, string>, query = '') {
  const response = await t.app.inject({ method: 'GET', url: `${HISTORY}${query}`, headers });
  expect(response.statusCode).toBe(200);
  return paymentHistoryAnswerSchema.parse(response.json());
}

describe('payment history', () => {
  const testApp = createWalletTestApp({ config: SIBLING_CONFIG });

  /** A user with: a 5000 ₽ adjustment, a purchase paid partly in points with cashback, a pending top-up. */
  async function userWithHistory(t: TestApp) {
    const { user, headers } = await createSignedInUser(t);
    await fundUser(t, user.id, { kopecks: 500_000 });
    t.clock.advance(MINUTE);
    await fundUser(t, user.id, { points: 40 });
    t.clock.advance(MINUTE);
    const order = await placeOrder(
      t,
      orderBody(user.id, { price: 1000, usePoints: true, name: 'Сервер' }),
    );
    expect(order.statusCode).toBe(200);
    t.clock.advance(MINUTE);
    const topUp = await requestTopUp(t, { user, headers }, 250);
    expect(topUp.statusCode).toBe(200);
    return { user, headers };
  }

  it('lists every entry newest first with kind, direction, currency, amount, status and time', async () => {
    const t = await testApp;
    const { headers } = await userWithHistory(t);
    const { data, nextCursor } = await history(t, headers);
    expect(nextCursor).toBeNull();
    const view = data.map(({ kind, direction, currency, amount, status }) => ({
      kind,
      direction,
      currency,
      amount,
      status,
    }));
    expect(view[0]).toEqual({
      kind: 'topUp',
      direction: 'accrual',
      currency: 'rub',
      amount: 250,
      status: 'pending',
    });
    // The purchase's three entries share one moment; their order among themselves is free.
    expect(view.slice(1, 4)).toEqual(
      expect.arrayContaining([
        {
          kind: 'cashback',
          direction: 'accrual',
          currency: 'points',
          amount: 48,
          status: 'completed',
        },
        {
          kind: 'purchase',
          direction: 'writeOff',
          currency: 'points',
          amount: 40,
          status: 'completed',
        },
        {
          kind: 'purchase',
          direction: 'writeOff',
          currency: 'rub',
          amount: 960,
          status: 'completed',
        },
      ]),
    );
    expect(view.slice(4)).toEqual([
      {
        kind: 'adjustment',
        direction: 'accrual',
        currency: 'points',
        amount: 40,
        status: 'completed',
      },
      {
        kind: 'adjustment',
        direction: 'accrual',
        currency: 'rub',
        amount: 5000,
        status: 'completed',
      },
    ]);
    const times = data.map((item) => Date.parse(item.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(data.find((item) => item.kind === 'purchase')!.description).toBe(
      'Оплата услуги «Сервер»',
    );
  });

  it('pages with a cursor without gaps or repeats', async () => {
    const t = await testApp;
    const { headers } = await userWithHistory(t);
    const all = (await history(t, headers)).data;
    const seen: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const page = await history(t, headers, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((item) => item.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((item) => item.id));
  });

  it('pages one entry at a time through entries and top-ups written at the same instant', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    // The clock stands still: every entry and top-up below has the same created_at.
    for (let index = 0; index < 3; index++) await fundUser(t, user.id, { kopecks: 10_000 });
    for (let index = 0; index < 2; index++) {
      expect((await requestTopUp(t, { user, headers }, 100 + index)).statusCode).toBe(200);
    }
    const all = (await history(t, headers)).data;
    expect(all).toHaveLength(5);
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const page = await history(t, headers, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.data.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((item) => item.id));
  });

  it('filters by direction and currency on the server', async () => {
    const t = await testApp;
    const { headers } = await userWithHistory(t);
    const writeOffs = (await history(t, headers, '?direction=writeOff')).data;
    expect(writeOffs.map((item) => [item.currency, item.amount]).sort()).toEqual([
      ['points', 40],
      ['rub', 960],
    ]);
    const points = (await history(t, headers, '?currency=points')).data;
    expect(points.map((item) => item.kind).sort()).toEqual(['adjustment', 'cashback', 'purchase']);
    expect(points.at(-1)!.kind).toBe('adjustment');
    const rubAccruals = (await history(t, headers, '?direction=accrual&currency=rub')).data;
    expect(rubAccruals.map((item) => [item.kind, item.amount])).toEqual([
      ['topUp', 250],
      ['adjustment', 5000],
    ]);
  });

  it("shows nobody else's entries, refuses a bad cursor and needs a session", async () => {
    const t = await testApp;
    await userWithHistory(t);
    const { headers } = await createSignedInUser(t);
    expect((await history(t, headers)).data).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: `${HISTORY}?cursor=nonsense`, headers });
    expect(bad.statusCode).toBe(400);
    // Well-formed but naming no entry: the id part of a cursor is an entry's UUID.
    const notAnId = Buffer.from(JSON.stringify([new Date().toISOString(), 'x'])).toString(
      'base64url',
    );
    const badId = await t.app.inject({
      method: 'GET',
      url: `${HISTORY}?cursor=${notAnId}`,
      headers,
    });
    expect(badId.statusCode).toBe(400);
    const badFilter = await t.app.inject({
      method: 'GET',
      url: `${HISTORY}?direction=sideways`,
      headers,
    });
    expect(badFilter.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: HISTORY })).statusCode).toBe(401);
  });

  it('a pending top-up offers its page until it expires; then it is unfinished, with no link', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const topUp = await requestTopUp(t, { user, headers }, 300);
    const pageUrl = topUp.json().data.paymentUrl as string;
    const [pending] = (await history(t, headers)).data;
    const expiresAt = new Date(t.clock.now().getTime() + 24 * 60 * MINUTE).toISOString();
    expect(pending).toMatchObject({ status: 'pending', continueUrl: pageUrl, expiresAt });
    // Someone else's history never carries it.
    const stranger = await createSignedInUser(t);
    expect(JSON.stringify((await history(t, stranger.headers)).data)).not.toContain(pageUrl);

    // Read at the moment the page expires: unfinished, and nothing to continue.
    const [expired] = (
      await listHistory(t.app.deps.db, { userId: user.id, now: new Date(expiresAt), limit: 20 })
    ).data;
    expect(expired).toMatchObject({ id: pending!.id, status: 'unfinished' });
    expect(expired).not.toHaveProperty('continueUrl');
    expect(expired).not.toHaveProperty('expiresAt');
  });

  it('a top-up that never reached its page is unfinished; a cancelled one has no link either', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const started = await requestTopUp(t, { user, headers }, 400);
    t.clock.advance(MINUTE);
    const cancelled = await requestTopUp(t, { user, headers }, 500);
    await pressSandboxButton(t.app, cancelled.json().data.paymentUrl, 'cancel');
    // As if its start had failed at the provider.
    await t.app.deps.db
      .update(payments)
      .set({ status: 'INIT_FAILED', redirectUrl: null })
      .where(and(eq(payments.userId, user.id), eq(payments.amountKopecks, 40_000)));
    expect(started.statusCode).toBe(200);
    const items = (await history(t, headers)).data;
    expect(items.map(({ amount, status }) => ({ amount, status }))).toEqual([
      { amount: 500, status: 'canceled' },
      { amount: 400, status: 'unfinished' },
    ]);
    for (const item of items) {
      expect(item).not.toHaveProperty('continueUrl');
      expect(item).not.toHaveProperty('expiresAt');
    }
  });
});
