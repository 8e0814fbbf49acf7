import { buildTopUpPayment } from '@portal/contracts/wallet';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DateMovingClock } from '../../../test/support/date-clock.js';
import { createSignedInUser, createUser, signIn } from '../../../test/support/fixtures.js';
import { activeProvider, balancesOf, createWalletTestApp } from '../../../test/support/wallet.js';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { hasValidTbankToken } from '../../adapters/tbank/token.js';
import { payments } from './schema.js';

/** Records every provider call the app makes, then lets it through. */
function recording() {
  const calls: { method: string; body: Record<string, unknown> }[] = [];
  const wrap =
    (inner: FetchLike): FetchLike =>
    async (url, init) => {
      const method = new URL(url).pathname.split('/').at(-1)!;
      calls.push({ method, body: JSON.parse(String(init.body)) });
      return inner(url, init);
    };
  return { calls, wrap };
}

const CREATE = '/paymentms/api/Payment/create';
const SBP = '/paymentms/api/Payment/sbp/qr';

describe('top-up: creating a payment', () => {
  const recorder = recording();
  // The attempts' limit counts in memory, by `Date`: the clock moves it too.
  const testApp = createWalletTestApp({ wrap: recorder.wrap, clock: new DateMovingClock() });

  it('records a pending payment, calls Init as T-Bank wants it, answers the page address', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    recorder.calls.length = 0;
    const response = await t.app.inject({
      method: 'POST',
      url: CREATE,
      headers,
      payload: buildTopUpPayment({ userId: user.id, email: user.email, amount: 1000.5 }),
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.status).toBe('ok');
    expect(answer.message).toEqual(expect.any(String));
    expect(answer.data.paymentUrl).toMatch(
      /^http:\/\/portal\.test\/sandbox\/tbank\/pay\/[\w-]{43}$/,
    );

    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    expect(payment).toMatchObject({
      status: 'NEW',
      amountKopecks: 100_050,
      method: 'card',
      creditedAt: null,
    });

    const init = recorder.calls.find((call) => call.method === 'Init')!;
    expect(init.body).toMatchObject({
      TerminalKey: activeProvider(t.app).terminalKey,
      Amount: 100_050,
      OrderId: payment!.id,
      Description: 'Пополнение баланса',
      NotificationURL: 'http://portal.test/paymentms/api/Payment/notification',
      SuccessURL: 'http://portal.test/?topup=success',
      FailURL: 'http://portal.test/?topup=fail',
      Receipt: {
        Email: user.email,
        // The settings' defaults (config.ts): a wallet top-up is an advance, its object a payment.
        Taxation: 'usn_income',
        Items: [
          {
            Name: 'Пополнение баланса',
            Price: 100_050,
            Quantity: 1,
            Amount: 100_050,
            Tax: 'none',
            PaymentMethod: 'advance',
            PaymentObject: 'payment',
          },
        ],
      },
    });
    expect(hasValidTbankToken(init.body, activeProvider(t.app).password)).toBe(true);
    // The page's lifetime is sent explicitly (T-Bank's default, 24 h) and kept with the payment.
    expect(init.body.RedirectDueDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00$/);
    expect(Date.parse(String(init.body.RedirectDueDate))).toBe(payment!.expiresAt.getTime());
    expect(payment!.expiresAt.getTime() - t.clock.now().getTime()).toBe(24 * 60 * 60_000);
    // Nothing is credited by creating a payment.
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);
  });

  it('ignores a foreign userId, receipt and e-mail in the payload', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const victim = await createUser(t);
    recorder.calls.length = 0;
    const payload = buildTopUpPayment({ userId: victim.id, email: victim.email, amount: 500 });
    payload.receipt!.items[0]!.price = 1;
    payload.receipt!.taxation = 'patent';
    const response = await t.app.inject({ method: 'POST', url: CREATE, headers, payload });
    expect(response.statusCode).toBe(200);
    const rows = await t.database.db.select().from(payments).where(eq(payments.userId, victim.id));
    expect(rows).toHaveLength(0);
    const [mine] = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(mine?.amountKopecks).toBe(50_000);
    const init = recorder.calls.find((call) => call.method === 'Init')!;
    expect(init.body.Receipt).toMatchObject({
      Email: user.email,
      Taxation: 'usn_income',
      Items: [{ Price: 50_000, Amount: 50_000, Tax: 'none' }],
    });
  });

  it('SBP: Init, then GetQr with PAYLOAD, answers the address to go to', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    recorder.calls.length = 0;
    const response = await t.app.inject({
      method: 'POST',
      url: SBP,
      headers,
      payload: buildTopUpPayment({ userId: user.id, email: user.email, amount: 10 }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      data: expect.stringContaining('/sandbox/tbank/pay/'),
    });
    expect(recorder.calls.map((call) => call.method)).toEqual(['Init', 'GetQr']);
    expect(recorder.calls[1]!.body).toMatchObject({ DataType: 'PAYLOAD' });
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    expect(payment).toMatchObject({
      method: 'sbp',
      amountKopecks: 1000,
      redirectUrl: response.json().data,
    });
  });

  it('refuses amounts outside the limits with a clear message and records nothing', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const cases = [
      { url: CREATE, amount: 9.99, message: 'Минимальная сумма пополнения — 10 ₽' },
      { url: CREATE, amount: 100_000.01, message: 'Максимальная сумма пополнения — 100 000 ₽' },
      { url: SBP, amount: 5, message: 'Минимальная сумма пополнения через СБП — 10 ₽' },
    ];
    for (const { url, amount, message } of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers,
        payload: buildTopUpPayment({ userId: user.id, email: user.email, amount }),
      });
      expect(response.statusCode, `${url} ${amount}`).toBe(400);
      expect(response.json().message.replace(/\s/g, ' ')).toBe(message.replace(/\s/g, ' '));
      expect(response.json().errors.amount).toHaveLength(1);
    }
    for (const amount of [0, -5, 10.001]) {
      const response = await t.app.inject({
        method: 'POST',
        url: CREATE,
        headers,
        payload: { amount },
      });
      expect(response.statusCode, String(amount)).toBe(400);
    }
    expect(await t.database.db.select().from(payments).where(eq(payments.userId, user.id))).toEqual(
      [],
    );
  });

  it('answers the first answer to a repeat with the same Idempotency-Key', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const payload = buildTopUpPayment({ userId: user.id, email: user.email, amount: 1500 });
    const withKey = { ...headers, 'idempotency-key': 'topup-abc-1' };
    const first = await t.app.inject({ method: 'POST', url: CREATE, headers: withKey, payload });
    const again = await t.app.inject({ method: 'POST', url: CREATE, headers: withKey, payload });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    const other = await t.app.inject({
      method: 'POST',
      url: CREATE,
      headers: withKey,
      payload: { ...payload, amount: 2000 },
    });
    expect(other.statusCode).toBe(409);

    const parallelKey = { ...headers, 'idempotency-key': 'topup-parallel' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.app.inject({ method: 'POST', url: CREATE, headers: parallelKey, payload }),
      ),
    );
    const urls = new Set(
      answers.filter((a) => a.statusCode === 200).map((a) => a.json().data.paymentUrl),
    );
    expect(urls.size).toBe(1);
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);

    const rows = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(2);
  });

  it('limits a user to 30 attempts per 10 minutes', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const payload = buildTopUpPayment({ userId: user.id, email: user.email, amount: 500 });
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await t.app.inject({ method: 'POST', url: CREATE, headers, payload });
      expect(response.statusCode).toBe(200);
    }
    const refused = await t.app.inject({ method: 'POST', url: CREATE, headers, payload });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    t.clock.advance(11 * 60_000);
    const { headers: fresh } = await signIn(t, user.id);
    const later = await t.app.inject({ method: 'POST', url: CREATE, headers: fresh, payload });
    expect(later.statusCode).toBe(200);
  });

  it('is for signed-in users only', async () => {
    const t = await testApp;
    const response = await t.app.inject({ method: 'POST', url: CREATE, payload: { amount: 500 } });
    expect(response.statusCode).toBe(401);
  });
});

describe('top-up: the provider fails', () => {
  let mode: 'throw' | 'refuse' | 'http500' | 'pass' = 'throw';
  let qrFails = false;
  const recorder = recording();
  const testApp = createWalletTestApp({
    wrap: (inner) => async (url, init) => {
      if (qrFails && url.endsWith('/GetQr')) {
        return Response.json({ Success: false, ErrorCode: '9999', Message: 'Внутренняя ошибка' });
      }
      if (url.endsWith('/Cancel')) return recorder.wrap(inner)(url, init);
      if (mode === 'throw') throw new TypeError('fetch failed');
      if (mode === 'http500') return new Response('oops', { status: 500 });
      if (mode === 'refuse') {
        return Response.json({ Success: false, ErrorCode: '9999', Message: 'Внутренняя ошибка' });
      }
      return inner(url, init);
    },
  });

  it('answers 503, records nothing paid, and lets the same key retry', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const payload = buildTopUpPayment({ userId: user.id, email: user.email, amount: 700 });
    const withKey = { ...headers, 'idempotency-key': 'retry-me' };
    for (const failure of ['throw', 'refuse', 'http500'] as const) {
      mode = failure;
      const response = await t.app.inject({
        method: 'POST',
        url: CREATE,
        headers: withKey,
        payload,
      });
      expect(response.statusCode, failure).toBe(503);
      expect(response.json().message).toMatch(/^Ошибка при отправке запроса\./);
    }
    const rows = await t.database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows.map((row) => row.status)).toEqual(['INIT_FAILED', 'INIT_FAILED', 'INIT_FAILED']);
    expect(rows.every((row) => row.creditedAt === null && row.idempotencyKey === null)).toBe(true);
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);

    // The customer sees the attempts as unfinished, never as waiting for payment.
    const history = await t.app.inject({ method: 'GET', url: '/payments/payments/user', headers });
    expect(history.json().data.map((item: { status: string }) => item.status)).toEqual([
      'unfinished',
      'unfinished',
      'unfinished',
    ]);

    mode = 'pass';
    const retry = await t.app.inject({ method: 'POST', url: CREATE, headers: withKey, payload });
    expect(retry.statusCode).toBe(200);
  });

  it('SBP: cancels at the provider a payment whose QR could not be had', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    qrFails = true;
    recorder.calls.length = 0;
    const payload = buildTopUpPayment({ userId: user.id, email: user.email, amount: 300 });
    const response = await t.app.inject({ method: 'POST', url: SBP, headers, payload });
    qrFails = false;
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toMatch(/^Ошибка при отправке запроса\./);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    expect(payment).toMatchObject({ status: 'INIT_FAILED', creditedAt: null });
    expect(recorder.calls).toEqual([
      {
        method: 'Cancel',
        body: expect.objectContaining({ PaymentId: payment!.providerPaymentId }),
      },
    ]);
    const state = await activeProvider(t.app).client.getState({
      PaymentId: payment!.providerPaymentId!,
    });
    expect(state.Status).toBe('CANCELED');
  });
});
