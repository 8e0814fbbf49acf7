import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import {
  HOSTING_KEY,
  LAUNCHER_KEY,
  orderBody,
  placeOrder,
  SIBLING_CONFIG,
} from '../../../test/support/sibling-sites.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  createWalletTestApp,
  expectLedgerBalanced,
  fundUser,
} from '../../../test/support/wallet.js';
import { ledgerEntries } from '../payments/schema.js';
import { services } from './schema.js';

function cancel(t: TestApp, orderId: string, userId: string, key = HOSTING_KEY) {
  return t.app.inject({
    method: 'POST',
    url: `/serversms/api/Sibling/orders/${encodeURIComponent(orderId)}/cancel`,
    headers: { 'x-api-key': key },
    payload: { userId },
  });
}

describe('sibling API: cancelling an order returns its price as it was paid', () => {
  const testApp = createWalletTestApp({ config: SIBLING_CONFIG });

  it('returns roubles as roubles and points as points, takes the cashback back, suspends the purchase', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 500_000, points: 300 });
    const body = orderBody(user.id, { price: 1790, usePoints: true, months: 2 });
    const placed = await placeOrder(t, body);
    expect(placed.statusCode).toBe(200);
    expect(placed.json()).toMatchObject({
      charged: { total: 3580, roubles: 3280, points: 300 },
      cashbackPoints: 164,
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 172_000, points: 164 });

    const cancelled = await cancel(t, body.orderId, user.id);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      orderId: body.orderId,
      status: 'cancelled',
      returned: { roubles: 3280, points: 300 },
      cashbackTakenBack: 164,
      balance: 5000,
      balanceStars: 300,
      service: { status: 'suspended', autoRenew: false, paidUntil: t.clock.now().toISOString() },
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 500_000, points: 300 });
    const entries = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(
      entries
        .filter((entry) => entry.idempotencyKey.includes(':cancel:'))
        .map((entry) => [entry.kind, entry.currency, entry.amount])
        .sort(),
    ).toEqual(
      [
        ['cashback', 'points', -164],
        ['refund', 'points', 300],
        ['refund', 'rub', 328_000],
      ].sort(),
    );
  });

  it('takes back only the cashback still there: the balance never goes below zero', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 300_000 });
    const first = orderBody(user.id, { price: 1000 });
    expect((await placeOrder(t, first)).json()).toMatchObject({ cashbackPoints: 50 });
    // The 50 cashback points are spent on the next order.
    const second = orderBody(user.id, { price: 1000, usePoints: true });
    expect((await placeOrder(t, second)).json()).toMatchObject({
      charged: { roubles: 950, points: 50 },
      cashbackPoints: 47,
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 105_000, points: 47 });

    // 47 points are there: the first order's 50 cashback can only be taken back in part.
    expect((await cancel(t, first.orderId, user.id)).json()).toMatchObject({
      returned: { roubles: 1000, points: 0 },
      cashbackTakenBack: 47,
      balance: 2050,
      balanceStars: 0,
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 205_000, points: 0 });
    // The second returns its 50 points and takes back what there is of its 47.
    expect((await cancel(t, second.orderId, user.id)).json()).toMatchObject({
      returned: { roubles: 950, points: 50 },
      cashbackTakenBack: 47,
      balance: 3000,
      balanceStars: 3,
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 300_000, points: 3 });
  });

  it('100 parallel cancels of one order: one cancel, the same answer to all', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 100_000 });
    const body = orderBody(user.id, { price: 700 });
    expect((await placeOrder(t, body)).statusCode).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => cancel(t, body.orderId, user.id)),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 100_000, points: 0 });
    const cancelEntries = (
      await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, user.id))
    ).filter((entry) => entry.idempotencyKey.includes(':cancel:'));
    expect(cancelEntries).toHaveLength(2);
  });

  it('cancelling a renewal takes its months off and leaves the service running', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000_000 });
    const purchase = orderBody(user.id, { price: 1000, externalId: `srv-${user.id}` });
    await placeOrder(t, purchase);
    const renewal = orderBody(user.id, { price: 1000, externalId: `srv-${user.id}`, months: 3 });
    const renewed = await placeOrder(t, renewal);
    expect(renewed.json()).toMatchObject({ kind: 'renewal' });
    const answer = await cancel(t, renewal.orderId, user.id);
    expect(answer.json()).toMatchObject({
      returned: { roubles: 3000 },
      service: { status: 'active', autoRenew: true },
    });
    const [service] = await t.database.db
      .select()
      .from(services)
      .where(eq(services.externalId, `srv-${user.id}`));
    expect(service!.paidUntil.toISOString()).toBe(new Date('2026-12-21T10:00:00Z').toISOString());
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 900_000, points: 50 });
  });

  it('404 for an unknown order or another site’s, 403 for another user’s', async () => {
    const t = await testApp;
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t, owner.id, { kopecks: 100_000 });
    const body = orderBody(owner.id, { price: 100 });
    await placeOrder(t, body);
    expect((await cancel(t, 'no-such-order', owner.id)).statusCode).toBe(404);
    expect((await cancel(t, body.orderId, owner.id, LAUNCHER_KEY)).statusCode).toBe(404);
    const foreign = await cancel(t, body.orderId, stranger.id);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe('Заказ оформлен на другого пользователя');
    expect(await expectLedgerBalanced(t, owner.id)).toMatchObject({ kopecks: 90_000, points: 5 });
  });
});
