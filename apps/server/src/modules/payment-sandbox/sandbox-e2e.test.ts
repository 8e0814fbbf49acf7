import { createServer } from 'node:net';
import { buildTopUpPayment } from '@portal/contracts/wallet';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { activeProvider, balancesOf } from '../../../test/support/wallet.js';
import { TbankClient } from '../../adapters/tbank/client.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import { payments } from '../payments/schema.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The portal listening on a real port: every step below is an HTTP request, as in a browser. */
async function listeningPortal() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const testApp = await createTestApp({ config: { PUBLIC_URL: base } });
  await testApp.app.listen({ port, host: '127.0.0.1' });
  return { ...testApp, base };
}

/** GETs the checkout page and submits its form with the chosen button, not following redirects. */
async function pressButton(pageUrl: string, action: 'pay' | 'cancel') {
  const page = await fetch(pageUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const formAction = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(formAction).toBeTruthy();
  return {
    page,
    html,
    answer: await fetch(new URL(formAction!, pageUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action }),
      redirect: 'manual',
    }),
  };
}

describe('sandbox provider end to end over HTTP', () => {
  const portal = listeningPortal();

  it('card: pay on the checkout page → signed notification → balance and history; refund via Cancel', async () => {
    const t = await portal;
    const { user, headers } = await createSignedInUser(t);
    const created = await fetch(`${t.base}/paymentms/api/Payment/create`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(buildTopUpPayment({ userId: user.id, email: user.email, amount: 1000 })),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { paymentUrl: string } };
    expect(data.paymentUrl).toMatch(new RegExp(`^${t.base}/sandbox/tbank/pay/[\\w-]{43}$`));

    const { page, html, answer } = await pressButton(data.paymentUrl, 'pay');
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain(`form-action 'self' ${t.base}`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('Оплатить');
    expect(html).toContain('Отменить');
    expect(html).toContain('1\u00a0000,00 ₽');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${t.base}/?topup=success`);

    // The notification travelled over HTTP and was answered OK before the redirect.
    expect(await balancesOf(t, user.id)).toMatchObject({
      kopecks: 100_000,
      ledger: { rub: 100_000 },
    });
    const historyResponse = await fetch(`${t.base}/payments/payments/user`, { headers });
    const history = (await historyResponse.json()) as { data: unknown[] };
    expect(history.data[0]).toMatchObject({
      kind: 'topUp',
      direction: 'accrual',
      currency: 'rub',
      amount: 1000,
      status: 'completed',
      description: 'Пополнение баланса картой',
    });
    expect(await (await fetch(data.paymentUrl)).text()).toContain('Платёж уже оплачен.');

    // Support refunds 400 ₽, then the rest, through the provider API.
    const provider = activeProvider(t.app);
    const client = new TbankClient({
      baseUrl: `${t.base}/sandbox/tbank`,
      terminalKey: provider.terminalKey,
      password: provider.password,
      fetch: (url, init) => fetch(url, init),
    });
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    const partial = await client.cancel({ PaymentId: payment!.providerPaymentId!, Amount: 40_000 });
    expect(partial).toMatchObject({ Status: 'PARTIAL_REFUNDED', NewAmount: 60_000 });
    expect((await balancesOf(t, user.id)).kopecks).toBe(60_000);
    const full = await client.cancel({ PaymentId: payment!.providerPaymentId! });
    expect(full).toMatchObject({ Status: 'REFUNDED', NewAmount: 0 });
    expect(await balancesOf(t, user.id)).toMatchObject({ kopecks: 0, ledger: { rub: 0 } });
    const state = await client.getState({ PaymentId: payment!.providerPaymentId! });
    expect(state.Status).toBe('REFUNDED');
  });

  it('receipts and a staff refund over HTTP: RECEIPT Income, Cancel with its receipt, RECEIPT IncomeReturn', async () => {
    const t = await portal;
    const { user, headers } = await createSignedInUser(t);
    const created = await fetch(`${t.base}/paymentms/api/Payment/create`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(buildTopUpPayment({ userId: user.id, email: user.email, amount: 300 })),
    });
    const { data } = (await created.json()) as { data: { paymentUrl: string } };
    expect((await pressButton(data.paymentUrl, 'pay')).answer.status).toBe(303);
    expect(await balancesOf(t, user.id)).toMatchObject({
      kopecks: 30_000,
      ledger: { rub: 30_000 },
    });

    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    const outcome = await t.app.deps.payments.refunds.refund({
      paymentId: payment!.id,
      amountKopecks: 10_000,
      reason: 'по просьбе клиента',
      operator: 'e2e',
    });
    expect(outcome).toMatchObject({ status: 'completed', refundedTotalKopecks: 10_000 });
    expect(await balancesOf(t, user.id)).toMatchObject({
      kopecks: 20_000,
      ledger: { rub: 20_000 },
    });

    const history = (await (
      await fetch(`${t.base}/payments/payments/user`, { headers })
    ).json()) as { data: { kind: string; receiptId?: string }[] };
    const refundItem = history.data.find((item) => item.kind === 'refund')!;
    const topUpItem = history.data.find((item) => item.kind === 'topUp')!;
    for (const [item, type, qr] of [
      [topUpItem, 'income', /&s=300\.00&.*&n=1$/],
      [refundItem, 'refund', /&s=100\.00&.*&n=2$/],
    ] as const) {
      const receipt = await fetch(`${t.base}/payments/receipts/${item.receiptId}`, { headers });
      expect(receipt.status).toBe(200);
      const body = (await receipt.json()) as { type: string; qrText: string };
      expect(body.type).toBe(type);
      expect(body.qrText).toMatch(qr);
    }
  });

  it('SBP: the GetQr address leads to the checkout; cancelling returns to the portal unpaid', async () => {
    const t = await portal;
    const { user, headers } = await createSignedInUser(t);
    const created = await fetch(`${t.base}/paymentms/api/Payment/sbp/qr`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(buildTopUpPayment({ userId: user.id, email: user.email, amount: 500 })),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: string };
    expect(data).toMatch(/\/sandbox\/tbank\/pay\/[\w-]{43}\?via=sbp$/);
    const { html, answer } = await pressButton(data, 'cancel');
    expect(html).toContain('Оплата через СБП');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`${t.base}/?topup=fail`);
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    expect(payment!.status).toBe('CANCELED');
  });

  it('refuses API calls with a wrong signature, and a checkout link it never issued', async () => {
    const t = await portal;
    const provider = activeProvider(t.app);
    const response = await fetch(`${t.base}/sandbox/tbank/v2/Init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        signTbankRequest({ TerminalKey: provider.terminalKey, Amount: 100, OrderId: 'x' }, 'wrong'),
      ),
    });
    expect(await response.json()).toMatchObject({ Success: false, ErrorCode: '204' });

    const forged = await fetch(`${t.base}/sandbox/tbank/pay/${'A'.repeat(43)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'pay' }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(404);
  });
});
