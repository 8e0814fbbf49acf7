import { TOP_UP_NOT_CONFIGURED } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { balancesOf, createWalletTestApp, requestTopUp } from '../../../test/support/wallet.js';
import { signTbankRequest } from '../../adapters/tbank/token.js';
import { SANDBOX_TERMINAL_KEY, sandboxPassword } from '../payment-sandbox/index.js';
import { sandboxPayments } from '../payment-sandbox/schema.js';
import { ledgerEntries, payments } from './schema.js';
import { NOTIFICATION_PATH } from './top-up.js';

async function rowCounts(t: TestApp) {
  const { db } = t.database;
  return {
    payments: (await db.select().from(payments)).length,
    ledger: (await db.select().from(ledgerEntries)).length,
    sandbox: (await db.select().from(sandboxPayments)).length,
  };
}

describe('a public portal without a terminal: top-ups are off', () => {
  // What `npm start` on a server with PUBLIC_URL set and no T-Bank settings gives.
  const testApp = createWalletTestApp({
    config: { PAYMENT_PROVIDER: 'auto', PUBLIC_URL: 'https://lk.example.com' },
  });

  it('answers 100 parallel top-ups, card and SBP, with 503 and the reason, writing nothing', async () => {
    const t = await testApp;
    expect(t.app.deps.payments.provider).toBeNull();
    const customer = await createSignedInUser(t);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        index % 2 === 0
          ? requestTopUp(t, customer, 500)
          : t.app.inject({
              method: 'POST',
              url: '/paymentms/api/Payment/sbp/qr',
              headers: customer.headers,
              payload: { amount: 500 },
            }),
      ),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ message: TOP_UP_NOT_CONFIGURED });
    }
    expect(await rowCounts(t)).toEqual({ payments: 0, ledger: 0, sandbox: 0 });
    expect((await balancesOf(t, customer.user.id)).kopecks).toBe(0);
  });

  it('serves no sandbox: its API and checkout pay nothing', async () => {
    const t = await testApp;
    const init = await t.app.inject({
      method: 'POST',
      url: '/sandbox/tbank/v2/Init',
      payload: signTbankRequest(
        { TerminalKey: SANDBOX_TERMINAL_KEY, Amount: 100_000, OrderId: 'x' },
        sandboxPassword(t.config),
      ),
    });
    expect(init.statusCode).toBe(404);
    const pay = await t.app.inject({
      method: 'POST',
      url: `/sandbox/tbank/pay/${'A'.repeat(43)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'action=pay',
    });
    expect(pay.statusCode).toBe(404);
    expect(await rowCounts(t)).toEqual({ payments: 0, ledger: 0, sandbox: 0 });
  });

  it('refuses notifications, even ones signed as the sandbox would sign them', async () => {
    const t = await testApp;
    const notification = await t.app.inject({
      method: 'POST',
      url: NOTIFICATION_PATH,
      payload: signTbankRequest(
        {
          TerminalKey: SANDBOX_TERMINAL_KEY,
          OrderId: '00000000-0000-4000-8000-000000000000',
          Success: true,
          Status: 'CONFIRMED',
          PaymentId: 1,
          ErrorCode: '0',
          Amount: 100_000,
        },
        sandboxPassword(t.config),
      ),
    });
    expect(notification.statusCode).toBe(503);
    expect(notification.json()).toEqual({ message: TOP_UP_NOT_CONFIGURED });
    expect(await t.app.deps.payments.reconciliation.run(t.app.log)).toEqual({
      checked: 0,
      changed: 0,
      failed: 0,
      abandoned: 0,
    });
    expect(await rowCounts(t)).toEqual({ payments: 0, ledger: 0, sandbox: 0 });
  });
});

// A staging that asks for the sandbox by name is what every other wallet test runs as: the test
// configuration's PUBLIC_URL (portal.test) is not local and its PAYMENT_PROVIDER is `sandbox`.
describe('a local portal without a terminal: the sandbox, as with npm start', () => {
  const testApp = createWalletTestApp({
    config: { PAYMENT_PROVIDER: 'auto', PUBLIC_URL: 'http://localhost:3000' },
  });

  it('sends the top-up to the sandbox checkout', async () => {
    const t = await testApp;
    expect(t.app.deps.payments.provider?.name).toBe('sandbox');
    const customer = await createSignedInUser(t);
    const answer = await requestTopUp(t, customer, 500);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.paymentUrl).toMatch(
      /^http:\/\/localhost:3000\/sandbox\/tbank\/pay\/[\w-]{43}$/,
    );
  });
});
