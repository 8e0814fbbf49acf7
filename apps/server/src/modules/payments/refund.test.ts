import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, lettersTo } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  createWalletTestApp,
  expectLedgerBalanced,
  fundUser,
  paidTopUp,
  requestTopUp,
  watchCancels,
} from '../../../test/support/wallet.js';
import { sandboxPayments } from '../payment-sandbox/schema.js';
import { ledgerEntries, paymentRefunds, payments, receipts } from './schema.js';

const cancels = watchCancels();

const refund = (t: TestApp, paymentId: string, amountKopecks?: number, idempotencyKey?: string) =>
  t.app.deps.payments.refunds.refund({
    paymentId,
    amountKopecks,
    reason: 'просьба клиента',
    operator: 'support@test',
    idempotencyKey,
  });

async function paymentRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

async function refundEntries(t: TestApp, paymentId: string) {
  return t.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.reference, paymentId), eq(ledgerEntries.kind, 'refund')));
}

describe('refunds.refund: staff refunds a top-up through the provider', () => {
  const testApp = createWalletTestApp({ wrap: cancels.wrap });

  it('refunds all of it: Cancel with a matching receipt, one debit, a letter, a return receipt', async () => {
    const t = await testApp;
    const { user, headers, payment } = await paidTopUp(t, 1000);
    cancels.calls.length = 0;
    const outcome = await refund(t, payment.id);
    expect(outcome).toMatchObject({
      paymentId: payment.id,
      amountKopecks: 100_000,
      refundedTotalKopecks: 100_000,
      status: 'completed',
    });
    expect(cancels.calls).toHaveLength(1);
    expect(cancels.calls[0]).toMatchObject({
      PaymentId: payment.providerPaymentId,
      Amount: 100_000,
      Receipt: {
        Email: user.email,
        Taxation: 'usn_income',
        Items: [{ Name: 'Пополнение баланса', Price: 100_000, Amount: 100_000, Quantity: 1 }],
      },
    });
    // The bank's REFUNDED notification came during Cancel and debited nothing more.
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    expect(await refundEntries(t, payment.id)).toMatchObject([
      { amount: -100_000, idempotencyKey: `payment:${payment.id}:refund:100000` },
    ]);
    expect(await paymentRow(t, payment.id)).toMatchObject({
      status: 'REFUNDED',
      refundedKopecks: 100_000,
      refundShortfallKopecks: 0,
    });
    const stored = await t.database.db
      .select()
      .from(receipts)
      .where(eq(receipts.paymentId, payment.id));
    expect(stored.map((row) => [row.type, row.amountKopecks]).sort()).toEqual([
      ['income', 100_000],
      ['refund', 100_000],
    ]);
    const [letter] = await lettersTo(t, user.email);
    expect(letter!.subject).toContain('возврат пополнения');
    expect(letter!.text).toMatch(
      /Мы вернули 1\u00a0000 ₽ из пополнения от \d{1,2} [а-я]+ \d{4} г\. и списали эту сумму с баланса аккаунта\./,
    );

    const history = await t.app.inject({ method: 'GET', url: '/payments/payments/user', headers });
    // The test clock stands still: find the entry rather than rely on the order of one instant.
    const items = history.json().data as { kind: string }[];
    expect(items.find((item) => item.kind === 'refund')).toMatchObject({
      kind: 'refund',
      direction: 'writeOff',
      amount: 1000,
      status: 'completed',
    });
  });

  it('refunds only what is unspent: min(not yet refunded, rouble balance); points never', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 1000);
    await fundUser(t, user.id, { kopecks: -70_000, points: 500 });
    await expectLedgerBalanced(t, user.id);
    await expect(refund(t, payment.id, 30_001)).rejects.toMatchObject({
      statusCode: 409,
      message: 'Можно вернуть не больше 300 ₽: столько от этого платежа ещё не потрачено',
    });
    expect((await expectLedgerBalanced(t, user.id)).kopecks).toBe(30_000);
    expect(await refund(t, payment.id)).toMatchObject({ amountKopecks: 30_000 });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0, points: 500 });
    expect(await paymentRow(t, payment.id)).toMatchObject({
      status: 'PARTIAL_REFUNDED',
      refundedKopecks: 30_000,
    });
    await expect(refund(t, payment.id)).rejects.toMatchObject({ statusCode: 409 });
    // Money that arrives later makes the rest refundable, never more than the payment.
    await fundUser(t, user.id, { kopecks: 200_000 });
    expect(await refund(t, payment.id)).toMatchObject({
      amountKopecks: 70_000,
      refundedTotalKopecks: 100_000,
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 130_000 });
    expect((await paymentRow(t, payment.id)).status).toBe('REFUNDED');
  });

  it('100 parallel refunds of 1 ₽ from a 50 ₽ top-up: 50 go through, each once', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 50);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => refund(t, payment.id, 100)),
    );
    const done = results.filter((result) => result.status === 'fulfilled');
    expect(done).toHaveLength(50);
    expect(
      results
        .filter((result) => result.status === 'rejected')
        .every((result) => (result.reason as { statusCode?: number }).statusCode === 409),
    ).toBe(true);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    expect(await refundEntries(t, payment.id)).toHaveLength(50);
    expect(await paymentRow(t, payment.id)).toMatchObject({
      status: 'REFUNDED',
      refundedKopecks: 5_000,
    });
    const [atBank] = await t.database.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.orderId, payment.id));
    expect(atBank).toMatchObject({ status: 'REFUNDED', currentAmountKopecks: 0 });
  });

  it('100 parallel whole refunds: one refunds, the rest find nothing left', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 700);
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, () => refund(t, payment.id)),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    expect(await refundEntries(t, payment.id)).toHaveLength(1);
  });

  it('a provider refusal gives the debit back; a later refund of the same total still debits', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 100);
    cancels.isRefusing = true;
    try {
      await expect(refund(t, payment.id, 4_000)).rejects.toMatchObject({
        statusCode: 409,
        message: 'Банк отказал в возврате. Деньги остались на балансе клиента',
      });
    } finally {
      cancels.isRefusing = false;
    }
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 10_000 });
    expect((await paymentRow(t, payment.id)).refundedKopecks).toBe(0);
    const [refused] = await t.database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(refused!.status).toBe('refused');

    expect(await refund(t, payment.id, 4_000)).toMatchObject({ status: 'completed' });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 6_000 });
    expect((await paymentRow(t, payment.id)).refundedKopecks).toBe(4_000);
  });

  it('a repeat with the same idempotency key refunds nothing more', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 100);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => refund(t, payment.id, 1_000, `ticket-${payment.id}`)),
    );
    expect(new Set(answers.map((answer) => answer.refundId)).size).toBe(1);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 9_000 });
    await expect(refund(t, payment.id, 2_000, `ticket-${payment.id}`)).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('refuses an unknown payment and one never paid', async () => {
    const t = await testApp;
    await expect(refund(t, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(refund(t, 'not-a-uuid')).rejects.toMatchObject({ statusCode: 404 });
    await expect(refund(t, '00000000-0000-4000-8000-000000000000', 0)).rejects.toMatchObject({
      statusCode: 400,
    });
    const signedIn = await createSignedInUser(t);
    expect((await requestTopUp(t, signedIn, 100)).statusCode).toBe(200);
    const [pending] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, signedIn.user.id));
    await expect(refund(t, pending!.id)).rejects.toMatchObject({
      statusCode: 409,
      message: 'Этот платёж не зачислен на баланс: возвращать нечего',
    });
    await expectLedgerBalanced(t, signedIn.user.id);
  });
});
