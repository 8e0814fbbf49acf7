import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  activeProvider,
  balancesOf,
  createWalletTestApp,
  expectLedgerBalanced,
  paidTopUp,
} from '../../../test/support/wallet.js';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { hasValidTbankToken, tbankToken } from '../../adapters/tbank/token.js';
import { sandboxPayments } from '../payment-sandbox/schema.js';
import { receipts } from './schema.js';

const NOTIFY = '/paymentms/api/Payment/notification';

/** Every notification body the sandbox sent, as it went over the wire. */
const sent: Record<string, unknown>[] = [];
const recordNotifications =
  (inner: FetchLike): FetchLike =>
  (url, init) => {
    if (url.endsWith(NOTIFY)) sent.push(JSON.parse(String(init.body)));
    return inner(url, init);
  };

describe('receipts: sent with Init, fiscalised by the provider, stored once', () => {
  const testApp = createWalletTestApp({ wrap: recordNotifications });

  it('the sandbox keeps the Init receipt and, once paid, sends a signed RECEIPT that is stored', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 1234.5);

    const [sandbox] = await t.database.db
      .select()
      .from(sandboxPayments)
      .where(eq(sandboxPayments.orderId, payment.id));
    expect(sandbox!.receipt).toEqual({
      Email: user.email,
      Taxation: 'usn_income',
      Items: [
        {
          Name: 'Пополнение баланса',
          Price: 123_450,
          Quantity: 1,
          Amount: 123_450,
          Tax: 'none',
          PaymentMethod: 'advance',
          PaymentObject: 'payment',
        },
      ],
    });

    const fiscal = sent.find((body) => body.OrderId === payment.id && body.Status === 'RECEIPT')!;
    expect(fiscal).toMatchObject({
      Status: 'RECEIPT',
      Type: 'Income',
      Amount: 123_450,
      PaymentId: Number(payment.providerPaymentId),
      FnNumber: expect.stringMatching(/^\d{16}$/),
      EcrRegNumber: expect.stringMatching(/^\d{16}$/),
      FiscalNumber: expect.any(Number),
      ShiftNumber: expect.any(Number),
      FiscalDocumentNumber: expect.any(Number),
      FiscalDocumentAttribute: expect.any(Number),
      ReceiptDatetime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00$/),
      Receipt: sandbox!.receipt,
    });
    // Signed like any notification; the nested Receipt is outside the signature.
    const password = activeProvider(t.app).password;
    expect(hasValidTbankToken(fiscal, password)).toBe(true);
    const { Receipt: _receipt, ...flat } = fiscal;
    expect(tbankToken(flat, password)).toBe(fiscal.Token);

    const stored = await t.database.db
      .select()
      .from(receipts)
      .where(eq(receipts.paymentId, payment.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      userId: user.id,
      type: 'income',
      amountKopecks: 123_450,
      itemName: 'Пополнение баланса',
      vat: 'none',
      fnNumber: fiscal.FnNumber,
      fiscalDocumentNumber: fiscal.FiscalDocumentNumber,
      fiscalDocumentAttribute: fiscal.FiscalDocumentAttribute,
      receiptDatetime: new Date(String(fiscal.ReceiptDatetime)),
    });
    // A receipt moves no money: the top-up's credit alone.
    expect(await balancesOf(t, user.id)).toMatchObject({
      kopecks: 123_450,
      ledger: { rub: 123_450 },
    });
  });

  it('stores a receipt once under 100 parallel repeats; refuses a forged or foreign one', async () => {
    const t = await testApp;
    const { user, payment } = await paidTopUp(t, 500);
    const fiscal = sent.find((body) => body.OrderId === payment.id && body.Status === 'RECEIPT')!;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        t.app.inject({ method: 'POST', url: NOTIFY, payload: fiscal }),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 200 && answer.body === 'OK')).toBe(true);
    const stored = await t.database.db
      .select()
      .from(receipts)
      .where(eq(receipts.paymentId, payment.id));
    expect(stored).toHaveLength(1);
    expect(await balancesOf(t, user.id)).toMatchObject({
      kopecks: 50_000,
      ledger: { rub: 50_000 },
    });

    const forged = await t.app.inject({
      method: 'POST',
      url: NOTIFY,
      payload: { ...fiscal, FiscalDocumentNumber: 999_999_999 },
    });
    expect(forged.statusCode).toBe(403);
    const password = activeProvider(t.app).password;
    const sign = (fields: Record<string, unknown>) => {
      const { Token: _token, ...rest } = fields;
      return { ...rest, Token: tbankToken(rest, password) };
    };
    const unknownOrder = await t.app.inject({
      method: 'POST',
      url: NOTIFY,
      payload: sign({ ...fiscal, OrderId: '00000000-0000-4000-8000-000000000000' }),
    });
    expect(unknownOrder.statusCode).toBe(404);
    const otherPayment = await t.app.inject({
      method: 'POST',
      url: NOTIFY,
      payload: sign({ ...fiscal, PaymentId: 1, FiscalDocumentNumber: 999_999_998 }),
    });
    expect(otherPayment.statusCode).toBe(400);
    expect(
      await t.database.db.select().from(receipts).where(eq(receipts.paymentId, payment.id)),
    ).toHaveLength(1);
  });

  it('the history links the receipts; the owner reads one with its FNS QR string, others get 404', async () => {
    const t = await testApp;
    const { user, headers, payment } = await paidTopUp(t, 1000);
    await t.app.deps.payments.refunds.refund({
      paymentId: payment.id,
      amountKopecks: 25_050,
      reason: 'тест',
      operator: 'test',
    });
    await expectLedgerBalanced(t, user.id);
    const history = await t.app.inject({ method: 'GET', url: '/payments/payments/user', headers });
    const items = history.json().data as { kind: string; receiptId?: string }[];
    const topUp = items.find((item) => item.kind === 'topUp')!;
    const refund = items.find((item) => item.kind === 'refund')!;
    expect(topUp.receiptId).toEqual(expect.any(String));
    expect(refund.receiptId).toEqual(expect.any(String));
    expect(refund.receiptId).not.toBe(topUp.receiptId);

    const income = await t.app.inject({
      method: 'GET',
      url: `/payments/receipts/${topUp.receiptId}`,
      headers,
    });
    expect(income.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(receipts)
      .where(eq(receipts.id, topUp.receiptId!));
    const printed = String((row!.raw as { ReceiptDatetime: string }).ReceiptDatetime);
    const t14 = `${printed.slice(0, 4)}${printed.slice(5, 7)}${printed.slice(8, 10)}T${printed.slice(11, 13)}${printed.slice(14, 16)}`;
    expect(income.json()).toMatchObject({
      type: 'income',
      seller: 'GameHost',
      itemName: 'Пополнение баланса',
      amount: 1000,
      vat: 'none',
      taxation: 'usn_income',
      fnNumber: row!.fnNumber,
      qrText: `t=${t14}&s=1000.00&fn=${row!.fnNumber}&i=${row!.fiscalDocumentNumber}&fp=${row!.fiscalDocumentAttribute}&n=1`,
      checkUrl: 'https://kkt-online.nalog.ru/',
    });
    expect(Buffer.from(income.json().qrCode, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const refundReceipt = await t.app.inject({
      method: 'GET',
      url: `/payments/receipts/${refund.receiptId}`,
      headers,
    });
    expect(refundReceipt.json()).toMatchObject({ type: 'refund', amount: 250.5 });
    expect(refundReceipt.json().qrText).toMatch(/&s=250\.50&.*&n=2$/);

    const stranger = await paidTopUp(t, 10);
    for (const url of [`/payments/receipts/${topUp.receiptId}`, '/payments/receipts/nope']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: stranger.headers });
      expect(answer.statusCode).toBe(404);
    }
    const anonymous = await t.app.inject({
      method: 'GET',
      url: `/payments/receipts/${topUp.receiptId}`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
