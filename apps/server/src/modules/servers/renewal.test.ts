import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, signIn } from '../../../test/support/fixtures.js';
import { orderBody, placeOrder, SIBLING_CONFIG } from '../../../test/support/sibling-sites.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { balancesOf, createWalletTestApp, fundUser } from '../../../test/support/wallet.js';
import { ledgerEntries } from '../payments/schema.js';
import { services } from './schema.js';

const DAY = 24 * 60 * 60 * 1000;

async function serviceOf(t: TestApp, userId: string) {
  const [row] = await t.database.db.select().from(services).where(eq(services.userId, userId));
  return row!;
}

describe('auto-renewal', () => {
  const testApp = createWalletTestApp({ config: SIBLING_CONFIG });

  it('renews a due service once per period and suspends what it cannot pay', async () => {
    const t = await testApp;
    const start = t.clock.now();
    const payer = await createSignedInUser(t);
    const broke = await createSignedInUser(t);
    const optedOut = await createSignedInUser(t);
    await fundUser(t, payer.user.id, { kopecks: 1790_00 * 2, points: 100 });
    await fundUser(t, broke.user.id, { kopecks: 1790_00 });
    await fundUser(t, optedOut.user.id, { kopecks: 1790_00 * 2 });
    for (const [{ user }, autoRenew, usePoints] of [
      [payer, true, true],
      [broke, true, false],
      [optedOut, false, false],
    ] as const) {
      const response = await placeOrder(
        t,
        orderBody(user.id, { price: 1790, autoRenew, usePoints }),
      );
      expect(response.statusCode).toBe(200);
    }
    const before = await balancesOf(t, payer.user.id);
    // Not due yet: nothing happens.
    expect(await t.app.deps.servers.renewals.renewDue(t.app.log)).toEqual({
      renewed: 0,
      suspended: 0,
      skipped: 0,
    });

    t.clock.advance(31 * DAY);
    // Several processes running the job at once still charge once.
    const runs = await Promise.all(
      [1, 2, 3].map(() => t.app.deps.servers.renewals.renewDue(t.app.log)),
    );
    expect(runs.reduce((sum, run) => sum + run.renewed, 0)).toBe(1);
    expect(runs.reduce((sum, run) => sum + run.suspended, 0)).toBe(2);

    const renewed = await serviceOf(t, payer.user.id);
    expect(renewed.status).toBe('active');
    expect(renewed.paidUntil.getTime()).toBe(
      new Date(start.getTime()).setUTCMonth(start.getUTCMonth() + 2),
    );
    const after = await balancesOf(t, payer.user.id);
    // The order spent the 100 points and earned 5% of 1690 ₽: 84 points.
    expect(before.points).toBe(84);
    // Renewal pays as the order did, points first: 84 points, 1706 ₽, cashback 85 points.
    expect(after.points).toBe(85);
    expect(after.kopecks).toBe(before.kopecks - 170_600);
    expect(after.ledger).toEqual({ rub: after.kopecks, points: after.points });

    expect((await serviceOf(t, broke.user.id)).status).toBe('suspended');
    expect((await serviceOf(t, optedOut.user.id)).status).toBe('suspended');
    expect((await balancesOf(t, broke.user.id)).kopecks).toBe(0);
    expect((await balancesOf(t, optedOut.user.id)).kopecks).toBe(1790_00);

    const renewals = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'renewal'));
    expect(renewals.filter((entry) => entry.userId === payer.user.id)).toHaveLength(2);
    expect(renewals.filter((entry) => entry.userId !== payer.user.id)).toHaveLength(0);

    // Running again in the same period changes nothing.
    expect(await t.app.deps.servers.renewals.renewDue(t.app.log)).toEqual({
      renewed: 0,
      suspended: 0,
      skipped: 0,
    });

    // A month later the old session has expired: sign in again.
    const { headers } = await signIn(t, broke.user.id);
    const shown = await t.app.inject({
      method: 'GET',
      url: '/serversms/api/Servers/owner/services',
      headers,
    });
    expect(shown.json()[0]).toMatchObject({ status: 'suspended', amount: 1790 });
  });

  it('a sibling order brings a suspended service back from now', async () => {
    const t = await testApp;
    t.clock.set(new Date('2026-12-31T10:00:00Z'));
    const { user } = await createSignedInUser(t);
    await fundUser(t, user.id, { kopecks: 100_00 });
    const first = await placeOrder(t, orderBody(user.id, { externalId: 'lapsed', price: 100 }));
    // Calendar months, as PostgreSQL counts them: 31 December + 1 month = 31 January.
    expect(first.json().service.paidUntil).toBe('2027-01-31T10:00:00.000Z');
    t.clock.advance(40 * DAY);
    await t.app.deps.servers.renewals.renewDue(t.app.log);
    expect((await serviceOf(t, user.id)).status).toBe('suspended');
    await fundUser(t, user.id, { kopecks: 100_00 });
    const back = await placeOrder(t, orderBody(user.id, { externalId: 'lapsed', price: 100 }));
    expect(back.statusCode).toBe(200);
    // Lapsed on 31 January, brought back on 9 February: paid for a month from now.
    expect(back.json().service).toMatchObject({
      status: 'active',
      paidUntil: '2027-03-09T10:00:00.000Z',
    });
  });
});
