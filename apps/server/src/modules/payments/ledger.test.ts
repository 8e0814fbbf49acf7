import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, createUser } from '../../../test/support/fixtures.js';
import { orderBody, placeOrder, SIBLING_CONFIG } from '../../../test/support/sibling-sites.js';
import {
  balancesOf,
  createWalletTestApp,
  fundUser,
  providerNotification,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { users } from '../accounts/schema.js';
import { InsufficientFundsError, postCreditAfter, postLedgerEntry } from './ledger.js';
import { ledgerEntries, payments } from './schema.js';

describe('ledger', () => {
  const testApp = createWalletTestApp({ config: SIBLING_CONFIG });

  it('is append-only: entries cannot be edited or deleted, only go with their user', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 5_000 });
    await expect(
      t.database.db
        .update(ledgerEntries)
        .set({ amount: 1 })
        .where(eq(ledgerEntries.userId, user.id)),
    ).rejects.toThrow();
    await expect(
      t.database.db.delete(ledgerEntries).where(eq(ledgerEntries.userId, user.id)),
    ).rejects.toThrow();
    await t.database.db.delete(users).where(eq(users.id, user.id));
    const left = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(left).toEqual([]);
  });

  it('writes a guarded credit only when its guard updated a row, once per key', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    expect((await requestTopUp(t, { user, headers }, 100)).statusCode).toBe(200);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    const guard = (status: string) =>
      t.database.db
        .update(payments)
        .set({ updatedAt: t.clock.now() })
        .where(sql`${payments.id} = ${payment!.id} AND ${payments.status} = ${status}`)
        .returning({ id: payments.id });
    const credit = {
      userId: user.id,
      currency: 'rub' as const,
      amount: 10_000,
      kind: 'topUp' as const,
      description: 'Пополнение',
      reference: payment!.id,
      idempotencyKey: `guarded:${payment!.id}`,
      createdAt: t.clock.now(),
    };
    expect(await postCreditAfter(t.database.db, guard('CONFIRMED'), credit)).toBe('unguarded');
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () => postCreditAfter(t.database.db, guard('NEW'), credit)),
    );
    expect(outcomes.filter((outcome) => outcome === 'applied')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(99);
    expect(await balancesOf(t, user.id)).toMatchObject({
      kopecks: 10_000,
      ledger: { rub: 10_000, points: 0 },
    });
    await expect(
      postCreditAfter(t.database.db, guard('NEW'), { ...credit, amount: -1 }),
    ).rejects.toThrow();
  });

  it('refuses to take a balance below zero, in code and in the database', async () => {
    const t = await testApp;
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 1_000 });
    await expect(
      t.database.db.transaction((tx) =>
        postLedgerEntry(tx, {
          userId: user.id,
          currency: 'rub',
          amount: -1_001,
          kind: 'purchase',
          description: 'Слишком дорого',
          idempotencyKey: `too-much:${user.id}`,
          createdAt: t.clock.now(),
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect(await balancesOf(t, user.id)).toEqual({
      kopecks: 1_000,
      points: 0,
      ledger: { rub: 1_000, points: 0 },
    });
    // Even a bare UPDATE is stopped by the CHECK constraint.
    await expect(
      t.database.db
        .update(users)
        .set({ balanceKopecks: sql`${users.balanceKopecks} - 5000` })
        .where(eq(users.id, user.id)),
    ).rejects.toThrow();
  });

  it('ignores a second entry with the same idempotency key', async () => {
    const t = await testApp;
    const user = await createUser(t);
    const entry = {
      userId: user.id,
      currency: 'points' as const,
      amount: 10,
      kind: 'adjustment' as const,
      description: 'Бонус',
      idempotencyKey: `bonus:${user.id}`,
      createdAt: t.clock.now(),
    };
    const outcomes = await Promise.all(
      [1, 2, 3].map(() => t.database.db.transaction((tx) => postLedgerEntry(tx, entry))),
    );
    expect(outcomes.sort()).toEqual(['applied', 'duplicate', 'duplicate']);
    expect((await balancesOf(t, user.id)).points).toBe(10);
  });

  it('keeps sum of entries = balance ≥ 0 under concurrent top-ups, charges and refunds', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const created = await Promise.all(
      Array.from({ length: 12 }, () => requestTopUp(t, { user, headers }, 100)),
    );
    expect(created.every((response) => response.statusCode === 200)).toBe(true);
    const rows = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
    const report = (row: (typeof rows)[number], status: string, amount = row.amountKopecks) =>
      providerNotification(t.app, {
        OrderId: row.id,
        PaymentId: Number(row.providerPaymentId),
        Status: status,
        Amount: amount,
      });
    const notify = (body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/paymentms/api/Payment/notification', payload: body });

    const work = [
      ...rows.flatMap((row) => [
        notify(report(row, 'CONFIRMED')),
        notify(report(row, 'CONFIRMED')),
      ]),
      ...rows.slice(0, 4).map((row) => notify(report(row, 'REFUNDED'))),
      // 30 ₽ of 100 ₽ refunded: 70 ₽ remain paid.
      ...rows.slice(4, 6).map((row) => notify(report(row, 'PARTIAL_REFUNDED', 7_000))),
      ...Array.from({ length: 20 }, (_, index) =>
        placeOrder(t, orderBody(user.id, { price: 40, usePoints: index % 2 === 0 })),
      ),
    ].sort(() => Math.random() - 0.5);
    const answers = await Promise.all(work);
    for (const answer of answers) expect([200, 402]).toContain(answer.statusCode);

    const balances = await balancesOf(t, user.id);
    expect(balances.kopecks).toBeGreaterThanOrEqual(0);
    expect(balances.points).toBeGreaterThanOrEqual(0);
    expect(balances.ledger).toEqual({ rub: balances.kopecks, points: balances.points });
    const credits = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(credits.filter((entry) => entry.kind === 'topUp')).toHaveLength(12);
  });
});
