import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  activeProvider,
  balancesOf,
  createWalletTestApp,
  pressSandboxButton,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { PaymentProviderError, tbankDateTime } from '../../adapters/tbank/client.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import { payments } from '../payments/schema.js';

const HOUR = 60 * 60_000;

async function topUp(t: TestApp, amount: number) {
  const { user, headers } = await createSignedInUser(t);
  const response = await requestTopUp(t, { user, headers }, amount);
  expect(response.statusCode).toBe(200);
  const pageUrl = response.json().data.paymentUrl as string;
  const [payment] = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
  return { user, pageUrl, payment: payment! };
}

/** A signed v2 call straight to the sandbox, answering its JSON. */
async function callSandbox(t: TestApp, method: string, fields: Record<string, unknown>) {
  const { terminalKey, password } = activeProvider(t.app);
  const response = await t.app.inject({
    method: 'POST',
    url: `/sandbox/tbank/v2/${method}`,
    payload: signTbankRequest({ TerminalKey: terminalKey, ...fields }, password),
  });
  return response.json();
}

describe('sandbox: CheckOrder', () => {
  const testApp = createWalletTestApp();

  it('lists the payments made under an OrderId, as they stand', async () => {
    const t = await testApp;
    const { payment, pageUrl } = await topUp(t, 250);
    const client = activeProvider(t.app).client;
    const order = await client.checkOrder({ OrderId: payment.id });
    expect(order.OrderId).toBe(payment.id);
    expect(order.Payments).toEqual([
      {
        PaymentId: payment.providerPaymentId,
        Amount: 25_000,
        Status: 'NEW',
        Success: true,
        ErrorCode: '0',
      },
    ]);
    await pressSandboxButton(t.app, pageUrl, 'pay');
    expect((await client.checkOrder({ OrderId: payment.id })).Payments[0]!.Status).toBe(
      'CONFIRMED',
    );
  });

  it('refuses an unknown order, a wrong signature and another terminal', async () => {
    const t = await testApp;
    const client = activeProvider(t.app).client;
    const unknown = await client
      .checkOrder({ OrderId: '6f1c1d8e-0000-4000-8000-000000000000' })
      .catch((error: unknown) => error);
    expect(unknown).toBeInstanceOf(PaymentProviderError);
    expect((unknown as PaymentProviderError).providerCode).toBe('7');

    const { payment } = await topUp(t, 100);
    const forged = await t.app.inject({
      method: 'POST',
      url: '/sandbox/tbank/v2/CheckOrder',
      payload: signTbankRequest(
        { TerminalKey: activeProvider(t.app).terminalKey, OrderId: payment.id },
        'not-the-password',
      ),
    });
    expect(forged.json()).toMatchObject({ Success: false, ErrorCode: '204' });
    const { password } = activeProvider(t.app);
    const otherTerminal = await t.app.inject({
      method: 'POST',
      url: '/sandbox/tbank/v2/CheckOrder',
      payload: signTbankRequest({ TerminalKey: 'OtherDEMO', OrderId: payment.id }, password),
    });
    expect(otherTerminal.json()).toMatchObject({ Success: false, ErrorCode: '501' });
  });
});

describe('sandbox: the payment lifetime (RedirectDueDate)', () => {
  const testApp = createWalletTestApp();

  it('a page still waiting at its due date is DEADLINE_EXPIRED and cannot be paid', async () => {
    const t = await testApp;
    const { user, pageUrl, payment } = await topUp(t, 300);
    const client = activeProvider(t.app).client;
    t.clock.advance(24 * HOUR - 1000);
    expect((await client.getState({ PaymentId: payment.providerPaymentId! })).Status).toBe('NEW');

    t.clock.advance(1000);
    const page = await t.app.inject({ method: 'GET', url: new URL(pageUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Срок оплаты истёк.');
    expect(page.body).not.toContain('<form');
    const pressed = await t.app.inject({
      method: 'POST',
      url: new URL(pageUrl).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=pay',
    });
    expect(pressed.statusCode).toBe(303);
    expect(pressed.headers.location).toBe('http://portal.test/?topup=fail');
    expect((await client.getState({ PaymentId: payment.providerPaymentId! })).Status).toBe(
      'DEADLINE_EXPIRED',
    );
    const qr = await callSandbox(t, 'GetQr', { PaymentId: payment.providerPaymentId });
    expect(qr).toMatchObject({ Success: false, ErrorCode: '8' });
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);
  });

  it('takes the lifetime from Init, within T-Bank’s range of 1 minute to 90 days', async () => {
    const t = await testApp;
    const base = { Amount: 1000, Description: 'Пополнение баланса' };
    const due = (ms: number) => tbankDateTime(new Date(t.clock.now().getTime() + ms));
    for (const RedirectDueDate of [due(30_000), due(91 * 24 * HOUR), 'завтра']) {
      const refused = await callSandbox(t, 'Init', {
        ...base,
        OrderId: `due-${RedirectDueDate.length}-${Math.random()}`.slice(0, 36),
        RedirectDueDate,
      });
      expect(refused, RedirectDueDate).toMatchObject({ Success: false, ErrorCode: '9999' });
    }
    const short = await callSandbox(t, 'Init', {
      ...base,
      OrderId: 'due-short',
      RedirectDueDate: due(5 * 60_000),
    });
    expect(short).toMatchObject({ Success: true, Status: 'NEW' });
    t.clock.advance(5 * 60_000);
    const state = await callSandbox(t, 'GetState', { PaymentId: short.PaymentId });
    expect(state).toMatchObject({ Success: true, Status: 'DEADLINE_EXPIRED' });
    const order = await callSandbox(t, 'CheckOrder', { OrderId: 'due-short' });
    expect(order.Payments).toEqual([expect.objectContaining({ Status: 'DEADLINE_EXPIRED' })]);
  });
});
