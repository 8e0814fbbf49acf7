import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/fixtures.js';
import type { TestApp } from '../../../test/test-app.js';
import { reconcilePayments } from './reconcile.js';
import { payments } from './schema.js';
import {
  balancesOf,
  createWalletTestApp,
  pressSandboxButton,
  requestTopUp,
} from './test-support.js';
import { NOTIFICATION_PATH } from './top-up.js';

const MINUTE = 60_000;

async function topUp(t: TestApp, amount: number) {
  const { user, headers } = await createSignedInUser(t);
  const response = await requestTopUp(t, { user, headers }, amount);
  expect(response.statusCode).toBe(200);
  return { user, pageUrl: response.json().data.paymentUrl as string };
}

async function paymentOf(t: TestApp, userId: string) {
  const [row] = await t.database.db.select().from(payments).where(eq(payments.userId, userId));
  return row!;
}

describe('reconciliation', () => {
  // Every notification is lost on the way; provider API calls go through.
  let lost = 0;
  const testApp = createWalletTestApp({
    wrap: (inner) => async (url, init) => {
      if (new URL(url).pathname === NOTIFICATION_PATH) {
        lost++;
        throw new TypeError('connection reset');
      }
      return inner(url, init);
    },
  });

  it('credits, once, a payment whose notification was lost', async () => {
    const t = await testApp;
    const { user, pageUrl } = await topUp(t, 1200);
    const paid = await pressSandboxButton(t.app, pageUrl, 'pay');
    expect(paid.statusCode).toBe(303);
    expect(lost).toBe(1);
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);

    // Too young: left to its notification.
    expect((await reconcilePayments(t.app.deps, t.app.log)).checked).toBe(0);
    t.clock.advance(3 * MINUTE);
    const [first, second] = await Promise.all([
      reconcilePayments(t.app.deps, t.app.log),
      reconcilePayments(t.app.deps, t.app.log),
    ]);
    expect(first!.changed + second!.changed).toBe(1);
    const balances = await balancesOf(t, user.id);
    expect(balances.kopecks).toBe(120_000);
    expect(balances.ledger.rub).toBe(120_000);
    expect((await paymentOf(t, user.id)).status).toBe('CONFIRMED');

    t.clock.advance(3 * MINUTE);
    expect((await reconcilePayments(t.app.deps, t.app.log)).checked).toBe(0);
    expect((await balancesOf(t, user.id)).kopecks).toBe(120_000);
  });

  it('records a cancellation, and cancels a payment page left unpaid past its lifetime', async () => {
    const t = await testApp;
    const cancelled = await topUp(t, 300);
    await pressSandboxButton(t.app, cancelled.pageUrl, 'cancel');
    const abandoned = await topUp(t, 400);
    t.clock.advance(3 * MINUTE);
    await reconcilePayments(t.app.deps, t.app.log);
    expect((await paymentOf(t, cancelled.user.id)).status).toBe('CANCELED');
    expect((await paymentOf(t, abandoned.user.id)).status).toBe('NEW');

    t.clock.advance(26 * 60 * MINUTE);
    await reconcilePayments(t.app.deps, t.app.log);
    expect((await paymentOf(t, abandoned.user.id)).status).toBe('CANCELED');
    for (const { user } of [cancelled, abandoned]) {
      expect((await balancesOf(t, user.id)).kopecks).toBe(0);
    }
  });
});
