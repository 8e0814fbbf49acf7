import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  activeProvider,
  balancesOf,
  createWalletTestApp,
  providerNotification,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import { ledgerEntries, payments } from './schema.js';

const NOTIFY = '/paymentms/api/Payment/notification';

/** A signed-in user with a pending card payment of `amount` roubles. */
async function pendingPayment(t: TestApp, amount = 1000) {
  const { user, headers } = await createSignedInUser(t);
  const response = await requestTopUp(t, { user, headers }, amount);
  expect(response.statusCode).toBe(200);
  const [payment] = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
  return { user, headers, payment: payment! };
}

function notify(t: TestApp, body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: NOTIFY, payload: body });
}

function report(
  t: TestApp,
  payment: { id: string; providerPaymentId: string | null; amountKopecks: number },
  status: string,
  amount = payment.amountKopecks,
) {
  return providerNotification(t.app, {
    OrderId: payment.id,
    PaymentId: Number(payment.providerPaymentId),
    Status: status,
    Amount: amount,
    Pan: '430000******0777',
  });
}

async function expectConsistent(t: TestApp, userId: string, kopecks: number) {
  const balances = await balancesOf(t, userId);
  expect(balances.kopecks).toBe(kopecks);
  expect(balances.ledger.rub).toBe(kopecks);
}

describe('payment notifications', () => {
  const testApp = createWalletTestApp();

  it('credits a signed CONFIRMED and answers exactly OK', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t, 1000);
    const response = await notify(t, report(t, payment, 'CONFIRMED'));
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('OK');
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    await expectConsistent(t, user.id, 100_000);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ status: 'CONFIRMED', creditedAt: expect.any(Date) });
  });

  it('refuses forged, unsigned and foreign-terminal notifications and changes nothing', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t);
    const genuine = report(t, payment, 'CONFIRMED');
    const { Token: _, ...unsigned } = genuine;
    const forgeries = [
      unsigned,
      { ...genuine, Token: '0'.repeat(64) },
      { ...genuine, Amount: payment.amountKopecks * 10 },
      signTbankRequest({ ...unsigned }, 'guessed-password'),
      signTbankRequest(
        { ...unsigned, TerminalKey: 'OtherTerminal' },
        activeProvider(t.app).password,
      ),
    ];
    for (const forged of forgeries) {
      const response = await notify(t, forged);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toBe('OK');
    }
    await expectConsistent(t, user.id, 0);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row!.status).toBe('NEW');
  });

  it('credits once when the same notification arrives 20 times in parallel', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t, 777);
    const body = report(t, payment, 'CONFIRMED');
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(t, body)));
    for (const answer of answers) expect(answer.body).toBe('OK');
    await expectConsistent(t, user.id, 77_700);
    const entries = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(entries).toHaveLength(1);
  });

  it('credits each payment once and refunds in full under 100 mixed reports in parallel', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    for (let index = 0; index < 10; index++) {
      expect((await requestTopUp(t, { user, headers }, 100)).statusCode).toBe(200);
    }
    const rows = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(10);
    // Half of the payments are refunded while their confirmations still arrive: reports that
    // settle in one statement and refunds that take the locks, on the same rows, in any order.
    const refunded = new Set(rows.slice(0, 5).map((row) => row.id));
    const bodies = rows.flatMap((row) =>
      refunded.has(row.id)
        ? [
            ...Array.from({ length: 5 }, () => report(t, row, 'CONFIRMED')),
            ...Array.from({ length: 3 }, () => report(t, row, 'AUTHORIZED')),
            ...Array.from({ length: 2 }, () => report(t, row, 'REFUNDED')),
          ]
        : [
            ...Array.from({ length: 7 }, () => report(t, row, 'CONFIRMED')),
            ...Array.from({ length: 3 }, () => report(t, row, 'REJECTED')),
          ],
    );
    expect(bodies).toHaveLength(100);
    const answers = await Promise.all(bodies.map((body) => notify(t, body)));
    for (const answer of answers) expect(answer.body).toBe('OK');
    await expectConsistent(t, user.id, 5 * 10_000);
    const entries = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(entries.filter((entry) => entry.kind === 'topUp')).toHaveLength(10);
    expect(entries.filter((entry) => entry.kind === 'refund')).toHaveLength(5);
    const after = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
    for (const row of after) {
      expect(row).toMatchObject(
        refunded.has(row.id)
          ? { status: 'REFUNDED', refundedKopecks: 10_000, refundShortfallKopecks: 0 }
          : { status: 'CONFIRMED', refundedKopecks: 0 },
      );
      expect(row.creditedAt).toBeInstanceOf(Date);
    }
  });

  it('refuses an amount that does not match the payment', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t, 1000);
    const response = await notify(t, report(t, payment, 'CONFIRMED', 1_000_000));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Сумма не совпадает с суммой платежа');
    await expectConsistent(t, user.id, 0);
    const other = await notify(
      t,
      providerNotification(t.app, {
        OrderId: payment.id,
        PaymentId: 999_999,
        Status: 'CONFIRMED',
        Amount: payment.amountKopecks,
      }),
    );
    expect(other.statusCode).toBe(400);
    await expectConsistent(t, user.id, 0);
  });

  it('moves the status only forward, whatever the order of arrival', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t, 500);
    for (const status of ['CONFIRMED', 'AUTHORIZED', 'NEW', 'FORM_SHOWED', 'CONFIRMED']) {
      expect((await notify(t, report(t, payment, status))).body).toBe('OK');
    }
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row!.status).toBe('CONFIRMED');
    await expectConsistent(t, user.id, 50_000);

    // A refund that overtakes its confirmation: credited and debited once each, net zero.
    const late = await pendingPayment(t, 300);
    expect((await notify(t, report(t, late.payment, 'REFUNDED'))).body).toBe('OK');
    expect((await notify(t, report(t, late.payment, 'CONFIRMED'))).body).toBe('OK');
    await expectConsistent(t, late.user.id, 0);
    const [lateRow] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.id, late.payment.id));
    expect(lateRow).toMatchObject({ status: 'REFUNDED', refundedKopecks: 30_000 });

    // A confirmation after a rejection still credits: a signed report of money taken wins.
    const rejected = await pendingPayment(t, 200);
    await notify(t, report(t, rejected.payment, 'REJECTED'));
    await expectConsistent(t, rejected.user.id, 0);
    await notify(t, report(t, rejected.payment, 'CONFIRMED'));
    await expectConsistent(t, rejected.user.id, 20_000);
  });

  it('debits a refund after confirmation, partial then full', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t, 1000);
    await notify(t, report(t, payment, 'CONFIRMED'));
    // PARTIAL_REFUNDED carries what remains paid: 1000 ₽ - 250 ₽ refunded.
    expect((await notify(t, report(t, payment, 'PARTIAL_REFUNDED', 75_000))).body).toBe('OK');
    await expectConsistent(t, user.id, 75_000);
    // The same report again changes nothing.
    await notify(t, report(t, payment, 'PARTIAL_REFUNDED', 75_000));
    await expectConsistent(t, user.id, 75_000);
    expect((await notify(t, report(t, payment, 'REFUNDED'))).body).toBe('OK');
    await expectConsistent(t, user.id, 0);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({
      status: 'REFUNDED',
      refundedKopecks: 100_000,
      refundShortfallKopecks: 0,
    });
  });

  it('never goes below zero when the refunded money was spent; records the shortfall', async () => {
    const t = await testApp;
    const { user, payment } = await pendingPayment(t, 1000);
    await notify(t, report(t, payment, 'CONFIRMED'));
    // The user spends 600 ₽ of it.
    await t.database.db.transaction(async (tx) => {
      const { postLedgerEntry } = await import('./ledger.js');
      await postLedgerEntry(tx, {
        userId: user.id,
        currency: 'rub',
        amount: -60_000,
        kind: 'purchase',
        description: 'Покупка',
        idempotencyKey: `spend:${user.id}`,
        createdAt: t.clock.now(),
      });
    });
    expect((await notify(t, report(t, payment, 'REFUNDED'))).body).toBe('OK');
    await expectConsistent(t, user.id, 0);
    const [row] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(row).toMatchObject({ refundedKopecks: 100_000, refundShortfallKopecks: 60_000 });
  });

  it('answers 404 for an order it does not know (receipts too), and OK to a card binding', async () => {
    const t = await testApp;
    const unknown = await notify(
      t,
      providerNotification(t.app, {
        OrderId: '00000000-0000-4000-8000-000000000000',
        PaymentId: 1,
        Status: 'CONFIRMED',
        Amount: 100,
      }),
    );
    expect(unknown.statusCode).toBe(404);
    const receipt = await notify(
      t,
      providerNotification(t.app, { OrderId: 'x', Status: 'RECEIPT' }),
    );
    expect(receipt.statusCode).toBe(404);
    const binding = await notify(
      t,
      providerNotification(t.app, { NotificationType: 'LINKACCOUNT', Status: 'ACTIVE' }),
    );
    expect(binding.body).toBe('OK');
  });
});
