import {
  SANDBOX_HEADING,
  SANDBOX_PAY_NOTE,
  SANDBOX_TEST_PAYMENT,
} from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  balancesOf,
  createWalletTestApp,
  pressSandboxButton,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import { payments } from '../payments/schema.js';
import { sandboxPayments } from './schema.js';

/** A customer's card top-up: its checkout address and its row in the sandbox's book. */
async function startTopUp(t: TestApp, amount = 700) {
  const customer = await createSignedInUser(t);
  const answer = await requestTopUp(t, customer, amount);
  expect(answer.statusCode).toBe(200);
  const pageUrl = new URL(answer.json().data.paymentUrl as string);
  const [payment] = await t.database.db
    .select()
    .from(payments)
    .where(eq(payments.userId, customer.user.id));
  const [row] = await t.database.db
    .select()
    .from(sandboxPayments)
    .where(eq(sandboxPayments.orderId, payment!.id));
  return { customer, pageUrl, path: pageUrl.pathname, row: row! };
}

const press = (t: TestApp, path: string, action: 'pay' | 'cancel') =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `action=${action}`,
  });

async function statusOf(t: TestApp, sandboxId: number) {
  const [row] = await t.database.db
    .select({ status: sandboxPayments.status })
    .from(sandboxPayments)
    .where(eq(sandboxPayments.id, sandboxId));
  return row!.status;
}

describe('sandbox checkout links', () => {
  const testApp = createWalletTestApp();

  it('carry 32 random bytes, never the sequential PaymentId', async () => {
    const t = await testApp;
    const first = await startTopUp(t);
    const second = await startTopUp(t);
    expect(second.row.id).toBe(first.row.id + 1);
    for (const { path, row } of [first, second]) {
      expect(path).toBe(`/sandbox/tbank/pay/${row.checkoutToken}`);
      expect(row.checkoutToken).toMatch(/^[\w-]{43}$/);
      expect(Buffer.from(row.checkoutToken, 'base64url')).toHaveLength(32);
    }
    expect(first.path).not.toBe(second.path);
  });

  it('a PaymentId, an old numeric link or a made-up token opens nothing and changes nothing', async () => {
    const t = await testApp;
    const victim = await startTopUp(t);
    const guesses = [
      `/sandbox/tbank/pay/${victim.row.id}`,
      `/sandbox/tbank/pay/${victim.row.orderId}`,
      `/sandbox/tbank/pay/${victim.row.checkoutToken.slice(0, -1)}`,
      `/sandbox/tbank/pay/${victim.row.checkoutToken.slice(0, -1)}${victim.row.checkoutToken.endsWith('A') ? 'B' : 'A'}`,
    ];
    for (const path of guesses) {
      const page = await t.app.inject({ method: 'GET', url: path });
      expect(page.statusCode, path).toBe(404);
      expect(page.body).not.toContain(victim.row.checkoutToken);
    }
    // 100 parallel presses on guessed links: every one refused, nothing paid or cancelled.
    const presses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        press(t, guesses[index % guesses.length]!, index % 2 ? 'pay' : 'cancel'),
      ),
    );
    expect(presses.map((answer) => answer.statusCode)).toEqual(Array(100).fill(404));
    expect(await statusOf(t, victim.row.id)).toBe('NEW');
    expect((await balancesOf(t, victim.customer.user.id)).kopecks).toBe(0);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, victim.customer.user.id));
    expect(payment!.status).toBe('NEW');
  });

  it("a payment's link pays that payment only, once under 100 parallel presses", async () => {
    const t = await testApp;
    const mine = await startTopUp(t, 900);
    const other = await startTopUp(t, 400);
    const presses = await Promise.all(
      Array.from({ length: 100 }, () => press(t, mine.path, 'pay')),
    );
    expect(new Set(presses.map((answer) => answer.statusCode))).toEqual(new Set([303]));
    expect(await statusOf(t, mine.row.id)).toBe('CONFIRMED');
    expect(await balancesOf(t, mine.customer.user.id)).toMatchObject({
      kopecks: 90_000,
      ledger: { rub: 90_000 },
    });
    // The other customer's payment is untouched, and its own link still works.
    expect(await statusOf(t, other.row.id)).toBe('NEW');
    expect((await balancesOf(t, other.customer.user.id)).kopecks).toBe(0);
    const cancelled = await press(t, other.path, 'cancel');
    expect(cancelled.statusCode).toBe(303);
    expect(await statusOf(t, other.row.id)).toBe('CANCELED');
    expect(await statusOf(t, mine.row.id)).toBe('CONFIRMED');
  });
});

describe('sandbox pages say it is a test payment', () => {
  const testApp = createWalletTestApp();

  const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  const headingOf = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

  it('the checkout: title, heading, the line under it and the note at the pay button', async () => {
    const t = await testApp;
    const { pageUrl } = await startTopUp(t);
    const page = await t.app.inject({ method: 'GET', url: `${pageUrl.pathname}?via=sbp` });
    expect(page.statusCode).toBe(200);
    expect(titleOf(page.body)).toBe(SANDBOX_TEST_PAYMENT);
    expect(headingOf(page.body)).toBe(SANDBOX_HEADING);
    expect(page.body).toContain(
      `<p class="test" data-testid="sandbox-test-label">${SANDBOX_TEST_PAYMENT}</p>`,
    );
    // Inside the form, right above «Оплатить», which points to it.
    const form = /<form[\s\S]*<\/form>/.exec(page.body)?.[0] ?? '';
    expect(form).toMatch(
      new RegExp(`<p class="pay-note" id="pay-note">${SANDBOX_PAY_NOTE.replace(/[«»]/g, '.')}</p>`),
    );
    expect(form).toMatch(/<button class="pay"[^>]*aria-describedby="pay-note"/);
  });

  it('the page after paying, and the page of an unknown link, say so too', async () => {
    const t = await testApp;
    const { pageUrl } = await startTopUp(t);
    expect((await pressSandboxButton(t.app, pageUrl.href, 'pay')).statusCode).toBe(303);
    const finished = await t.app.inject({ method: 'GET', url: pageUrl.pathname });
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/sandbox/tbank/pay/${'x'.repeat(43)}`,
    });
    for (const page of [finished, unknown]) {
      expect(titleOf(page.body)).toBe(SANDBOX_TEST_PAYMENT);
      expect(headingOf(page.body)).toBe(SANDBOX_HEADING);
      expect(page.body).toContain(SANDBOX_TEST_PAYMENT);
    }
  });

  it('a sandbox top-up, paid and refunded, sends no letter (so none can pass for a real one)', async () => {
    const t = await testApp;
    const paid = await startTopUp(t);
    await pressSandboxButton(t.app, paid.pageUrl.href, 'pay');
    const cancelled = await startTopUp(t);
    await pressSandboxButton(t.app, cancelled.pageUrl.href, 'cancel');
    expect((await balancesOf(t, paid.customer.user.id)).kopecks).toBe(70_000);
    expect(await t.database.db.select().from(mailOutbox)).toEqual([]);
  });
});
