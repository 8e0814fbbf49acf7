import { buildTopUpPayment } from '@portal/contracts/wallet';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser, signIn } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  activeProvider,
  balancesOf,
  createWalletTestApp,
  pressSandboxButton,
  requestTopUp,
} from '../../../test/support/wallet.js';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import { startGiveUpAfterMs } from './reconcile.js';
import { payments } from './schema.js';
import { UNSETTLED_STATUSES } from './statuses.js';
import { NOTIFICATION_PATH } from './top-up.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const HISTORY = '/payments/payments/user';

async function topUp(t: TestApp, amount: number) {
  const { user, headers } = await createSignedInUser(t);
  const response = await requestTopUp(t, { user, headers }, amount);
  expect(response.statusCode).toBe(200);
  return { user, headers, pageUrl: response.json().data.paymentUrl as string };
}

async function paymentOf(t: TestApp, userId: string) {
  const [row] = await t.database.db.select().from(payments).where(eq(payments.userId, userId));
  return row!;
}

async function historyStatuses(t: TestApp, headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: HISTORY, headers });
  expect(response.statusCode).toBe(200);
  return (response.json().data as { status: string }[]).map((item) => item.status);
}

/** Every notification is lost on the way; provider API calls go through. */
function losingNotifications(inner: FetchLike): FetchLike {
  return async (url, init) => {
    if (new URL(url).pathname === NOTIFICATION_PATH) throw new TypeError('connection reset');
    return inner(url, init);
  };
}

/**
 * The provider as each test needs it. Notifications are always lost, so only reconciliation
 * settles. Init may answer (`pass`); never answer (`hang`: the request never reached the provider,
 * or the process stopped while waiting); or make the payment and hold its answer (`answerLost`),
 * to be delivered or dropped later. GetQr may hang the same way, CheckOrder may fail like a
 * network, and the provider may be told a later RedirectDueDate than the portal keeps.
 */
let initMode: 'pass' | 'hang' | 'answerLost' = 'pass';
let qrHangs = false;
let checkOrderFails = false;
let outlivingPages = false;
const held: { deliver: () => void; drop: () => void }[] = [];
const pages: string[] = [];

function hold(answer?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const drop = () => reject(new TypeError('fetch failed'));
    held.push({
      deliver: () => (answer === undefined ? drop() : resolve(Response.json(JSON.parse(answer)))),
      drop,
    });
  });
}
const release = (how: 'deliver' | 'drop') => {
  for (const request of held.splice(0)) request[how]();
};

// One app for the file: a machine under load starts several slowly.
const testApp = createWalletTestApp({
  wrap: (inner) => {
    const onward = losingNotifications(inner);
    return async (url, init) => {
      if (url.endsWith('/Init') && initMode === 'hang') return hold();
      if (url.endsWith('/Init') && initMode === 'answerLost') {
        const answer = await (await onward(url, init)).text();
        pages.push(JSON.parse(answer).PaymentURL);
        return hold(answer);
      }
      if (url.endsWith('/Init') && outlivingPages) {
        const { Token: _token, ...body } = JSON.parse(String(init.body));
        const later = new Date(Date.parse(body.RedirectDueDate) + 48 * HOUR).toISOString();
        const { password } = activeProvider((await testApp).app);
        const resigned = signTbankRequest({ ...body, RedirectDueDate: later }, password);
        return onward(url, { ...init, body: JSON.stringify(resigned) });
      }
      if (url.endsWith('/GetQr') && qrHangs) return hold();
      if (url.endsWith('/CheckOrder') && checkOrderFails) throw new TypeError('fetch failed');
      return onward(url, init);
    };
  },
});

describe('reconciliation', () => {
  it('credits, once, a payment whose notification was lost', async () => {
    const t = await testApp;
    const { user, pageUrl } = await topUp(t, 1200);
    const paid = await pressSandboxButton(t.app, pageUrl, 'pay');
    expect(paid.statusCode).toBe(303);
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);

    // Too young: left to its notification.
    expect((await t.app.deps.payments.reconciliation.run(t.app.log)).checked).toBe(0);
    t.clock.advance(3 * MINUTE);
    const [first, second] = await Promise.all([
      t.app.deps.payments.reconciliation.run(t.app.log),
      t.app.deps.payments.reconciliation.run(t.app.log),
    ]);
    expect(first!.changed + second!.changed).toBe(1);
    const balances = await balancesOf(t, user.id);
    expect(balances.kopecks).toBe(120_000);
    expect(balances.ledger.rub).toBe(120_000);
    expect((await paymentOf(t, user.id)).status).toBe('CONFIRMED');

    t.clock.advance(3 * MINUTE);
    expect((await t.app.deps.payments.reconciliation.run(t.app.log)).checked).toBe(0);
    expect((await balancesOf(t, user.id)).kopecks).toBe(120_000);
  });

  it('records a cancellation, and a page left unpaid past its lifetime as expired', async () => {
    const t = await testApp;
    const cancelled = await topUp(t, 300);
    await pressSandboxButton(t.app, cancelled.pageUrl, 'cancel');
    const abandoned = await topUp(t, 400);
    t.clock.advance(3 * MINUTE);
    await t.app.deps.payments.reconciliation.run(t.app.log);
    expect((await paymentOf(t, cancelled.user.id)).status).toBe('CANCELED');
    expect((await paymentOf(t, abandoned.user.id)).status).toBe('NEW');
    expect(await historyStatuses(t, abandoned.headers)).toEqual(['pending']);

    // The provider expires a page at the RedirectDueDate the portal sent (24 h).
    t.clock.advance(24 * HOUR);
    await t.app.deps.payments.reconciliation.run(t.app.log);
    expect((await paymentOf(t, abandoned.user.id)).status).toBe('DEADLINE_EXPIRED');
    // A day later the old sessions have expired.
    expect(await historyStatuses(t, (await signIn(t, abandoned.user.id)).headers)).toEqual([
      'unfinished',
    ]);
    expect(await historyStatuses(t, (await signIn(t, cancelled.user.id)).headers)).toEqual([
      'canceled',
    ]);
    for (const { user } of [cancelled, abandoned]) {
      expect((await balancesOf(t, user.id)).kopecks).toBe(0);
    }
  });
});

describe('reconciliation: a provider that keeps an expired page open', () => {
  it('cancels it there an hour after the page expired', async () => {
    const t = await testApp;
    outlivingPages = true;
    const { user } = await topUp(t, 500);
    outlivingPages = false;
    t.clock.advance(24 * HOUR + 30 * MINUTE);
    const early = await t.app.deps.payments.reconciliation.run(t.app.log);
    expect(early).toMatchObject({ changed: 0, abandoned: 0 });
    expect((await paymentOf(t, user.id)).status).toBe('NEW');

    t.clock.advance(31 * MINUTE);
    const late = await t.app.deps.payments.reconciliation.run(t.app.log);
    expect(late).toMatchObject({ changed: 1, failed: 0, abandoned: 1 });
    const payment = await paymentOf(t, user.id);
    expect(payment.status).toBe('CANCELED');
    const state = await activeProvider(t.app).client.getState({
      PaymentId: payment.providerPaymentId!,
    });
    expect(state.Status).toBe('CANCELED');
  });
});

describe('reconciliation: a top-up whose start was interrupted', () => {
  /** A top-up whose provider call never comes back, as in a process that stopped there. */
  async function stalledTopUp(
    t: TestApp,
    options: { method?: 'card' | 'sbp'; amount?: number } = {},
  ) {
    const { user, headers } = await createSignedInUser(t);
    const withKey = { ...headers, 'idempotency-key': 'stalled-key' };
    const payload = buildTopUpPayment({
      userId: user.id,
      email: user.email,
      amount: options.amount ?? 700,
    });
    const url =
      options.method === 'sbp' ? '/paymentms/api/Payment/sbp/qr' : '/paymentms/api/Payment/create';
    const request = () => t.app.inject({ method: 'POST', url, headers: withKey, payload });
    const before = held.length;
    const pending = request();
    await expect.poll(() => held.length, { timeout: 10_000 }).toBe(before + 1);
    return { user, headers, pending, request };
  }

  it('waits out Init’s timeout, then closes it and frees the key; the history says unfinished', async () => {
    const t = await testApp;
    initMode = 'hang';
    const stalled = await stalledTopUp(t);
    initMode = 'pass';
    // The same key meanwhile: the first attempt still holds it.
    expect((await stalled.request()).statusCode).toBe(409);
    expect(await historyStatuses(t, stalled.headers)).toEqual(['pending']);

    const bound = startGiveUpAfterMs(t.config);
    t.clock.advance(bound - 1000);
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toMatchObject({ abandoned: 0 });
    expect((await paymentOf(t, stalled.user.id)).status).toBe('NEW');

    t.clock.advance(2000);
    // The provider never heard of the order (CheckOrder refuses): not a failure, just closed.
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toEqual({
      checked: 1,
      changed: 1,
      failed: 0,
      abandoned: 1,
    });
    expect(await paymentOf(t, stalled.user.id)).toMatchObject({
      status: 'INIT_FAILED',
      idempotencyKey: null,
      providerPaymentId: null,
      creditedAt: null,
    });
    expect(await historyStatuses(t, stalled.headers)).toEqual(['unfinished']);

    const retry = await stalled.request();
    expect(retry.statusCode).toBe(200);
    expect(await historyStatuses(t, stalled.headers)).toEqual(['pending', 'unfinished']);
    release('drop');
    expect((await stalled.pending).statusCode).toBe(503);
  });

  it('finds by order a payment the provider made, cancels it there, and never revives it', async () => {
    const t = await testApp;
    initMode = 'answerLost';
    const stalled = await stalledTopUp(t, { amount: 800 });
    initMode = 'pass';
    t.clock.advance(startGiveUpAfterMs(t.config) + 1000);
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toMatchObject({
      changed: 1,
      failed: 0,
      abandoned: 1,
    });
    const payment = await paymentOf(t, stalled.user.id);
    expect(payment).toMatchObject({ status: 'INIT_FAILED', idempotencyKey: null });
    expect(payment.providerPaymentId).toMatch(/^\d+$/);
    const state = await activeProvider(t.app).client.getState({
      PaymentId: payment.providerPaymentId!,
    });
    expect(state.Status).toBe('CANCELED');

    // Init's answer reaches the stalled request after all: it fails, and the row stays closed.
    release('deliver');
    expect((await stalled.pending).statusCode).toBe(503);
    expect(await paymentOf(t, stalled.user.id)).toMatchObject({
      status: 'INIT_FAILED',
      redirectUrl: null,
      idempotencyKey: null,
    });
  });

  it('a payment the provider says was paid is credited once, not closed', async () => {
    const t = await testApp;
    initMode = 'answerLost';
    const stalled = await stalledTopUp(t, { amount: 900 });
    initMode = 'pass';
    // Nobody was given this page; were it paid all the same, the money must not be lost.
    const pressed = await pressSandboxButton(t.app, pages.at(-1)!, 'pay');
    expect(pressed.statusCode).toBe(303);
    t.clock.advance(startGiveUpAfterMs(t.config) + 1000);
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toMatchObject({
      changed: 1,
      failed: 0,
      abandoned: 0,
    });
    expect(await paymentOf(t, stalled.user.id)).toMatchObject({
      status: 'CONFIRMED',
      idempotencyKey: null,
    });
    expect((await balancesOf(t, stalled.user.id)).kopecks).toBe(90_000);
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toMatchObject({ changed: 0 });
    release('deliver');
    expect((await stalled.pending).statusCode).toBe(503);
    const balances = await balancesOf(t, stalled.user.id);
    expect([balances.kopecks, balances.ledger.rub]).toEqual([90_000, 90_000]);
  });

  it('SBP stopped between Init and GetQr: asks by PaymentId, cancels, closes', async () => {
    const t = await testApp;
    qrHangs = true;
    const stalled = await stalledTopUp(t, { method: 'sbp', amount: 100 });
    qrHangs = false;
    t.clock.advance(startGiveUpAfterMs(t.config) + 1000);
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toMatchObject({
      changed: 1,
      failed: 0,
      abandoned: 1,
    });
    const payment = await paymentOf(t, stalled.user.id);
    expect(payment).toMatchObject({ status: 'INIT_FAILED', idempotencyKey: null });
    const state = await activeProvider(t.app).client.getState({
      PaymentId: payment.providerPaymentId!,
    });
    expect(state.Status).toBe('CANCELED');
    expect((await stalled.request()).statusCode).toBe(200);
    release('drop');
    expect((await stalled.pending).statusCode).toBe(503);
  });

  it('closes it even when the provider cannot be asked, counting the failure', async () => {
    const t = await testApp;
    initMode = 'hang';
    const stalled = await stalledTopUp(t);
    initMode = 'pass';
    checkOrderFails = true;
    t.clock.advance(startGiveUpAfterMs(t.config) + 1000);
    const counts = await t.app.deps.payments.reconciliation.run(t.app.log);
    checkOrderFails = false;
    expect(counts).toMatchObject({ changed: 1, failed: 1, abandoned: 1 });
    expect(await paymentOf(t, stalled.user.id)).toMatchObject({
      status: 'INIT_FAILED',
      idempotencyKey: null,
    });
    release('drop');
    expect((await stalled.pending).statusCode).toBe(503);
  });
});

describe('reconciliation: the index of payments awaiting money', () => {
  it('covers exactly the statuses reconciliation asks about (else its scans read every payment)', async () => {
    const t = await testApp;
    const result = (await t.app.deps.db.execute(
      sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'payments_awaiting_idx'`,
    )) as unknown as { rows: { indexdef: string }[] };
    const definition = result.rows[0]?.indexdef ?? '';
    const statuses = [...definition.matchAll(/'([A-Z0-9_]+)'::text/g)].map((match) => match[1]);
    expect(statuses.sort()).toEqual([...UNSETTLED_STATUSES].sort());
  });
});
