import { STAFF_API, STAFF_OWN_REQUEST } from '@portal/contracts/staff';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { openSignedInPage } from '../test/support/e2e/fixtures';
import { newCustomerAndStaff, type StaffCandidate } from '../test/support/e2e/staff-helpers';
import {
  type Customer,
  plain,
  setupWalletWorld,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

// Money moved by two people (STAFF_APPROVAL_ROUBLES, 1 000 ₽ by default): finance A asks a
// correction or a refund above it — a request, nothing moves; A cannot approve its own; finance
// B approves it on /staff/money and the account page shows the money moved; the refunded
// payment's «Чеки» shows its two receipts (the top-up's, the refund's).

const world = setupWalletWorld();
const browser = setupBrowser();
const baseUrl = () => world().portal.baseUrl;
const url = (pathname: string) => `${baseUrl()}${pathname}`;

let customer: Customer;
let financeA: StaffCandidate;
let financeB: StaffCandidate;

beforeAll(async () => {
  ({ customer, financeA, financeB } = await newCustomerAndStaff(world(), {
    admin: { role: 'admin', proven: true },
    financeA: { role: 'finance', proven: true },
    financeB: { role: 'finance', proven: true },
  }));
  // The top-up after the restart: its payment, ledger entry and letters fill the account page.
  await topUpThroughSandbox(world(), customer, 5000);
});

/** A profile fact of the account page (its <dt> and <dd>), spaces made plain. */
async function fact(page: Page, term: string): Promise<string> {
  const value = page
    .locator('dl > div')
    .filter({ has: page.getByText(term, { exact: true }) })
    .locator('dd');
  return plain((await value.textContent()) ?? '');
}

async function openAccount(member: StaffCandidate): Promise<Page> {
  const page = await openSignedInPage(browser, member.token);
  await page.goto(url(`/staff/accounts/${customer.userId}`));
  await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
  return page;
}

/** The request's row on /staff/money, found by its reason. */
async function requestRow(member: StaffCandidate, reason: string): Promise<[Page, Locator]> {
  const page = await openSignedInPage(browser, member.token);
  await page.goto(url('/staff/money'));
  await page.getByRole('heading', { level: 1, name: 'Запросы на деньги' }).waitFor();
  const row = page.getByRole('region', { name: 'Ждут одобрения' }).getByRole('row').filter({
    hasText: reason,
  });
  await row.waitFor();
  return [page, row];
}

/** B approves on /staff/money; A's own «Одобрить» is off, and the server refuses A too. */
async function approveByTwo(reason: string) {
  const [pageA, rowA] = await requestRow(financeA, reason);
  expect(await rowA.getByRole('button', { name: 'Одобрить' }).isDisabled()).toBe(true);
  expect(await rowA.getByRole('cell').nth(1).textContent()).toBe(financeA.username);
  await pageA.close();

  const pending = (await (
    await fetch(url(`${STAFF_API}/money-requests`), {
      headers: { authorization: `Bearer ${financeA.token}` },
    })
  ).json()) as { items: { id: string; reason: string }[] };
  const request = pending.items.find((item) => item.reason === reason);
  expect(request).toBeDefined();
  const own = await fetch(url(`${STAFF_API}/money-requests/${request?.id}/approve`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${financeA.token}` },
    body: JSON.stringify({ reason: 'сам себе' }),
  });
  expect(own.status).toBe(409);
  expect(((await own.json()) as { message: string }).message).toBe(STAFF_OWN_REQUEST);

  const [pageB, rowB] = await requestRow(financeB, reason);
  await rowB.getByRole('button', { name: 'Одобрить' }).click();
  const dialog = pageB.getByRole('dialog', { name: 'Одобрить запрос' });
  await dialog.getByLabel('Причина или номер обращения').fill('проверил: всё верно');
  await dialog.getByRole('button', { name: 'Одобрить', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await rowB.waitFor({ state: 'detached' });
}

it('a correction above 1 000 ₽ waits for a second finance member, then the balance moves', async () => {
  const page = await openAccount(financeA);
  const before = await fact(page, 'Баланс');
  expect(before).toBe('5 000,00 ₽');
  await page.getByRole('button', { name: 'Корректировка баланса' }).click();
  const dialog = page.getByRole('dialog', { name: 'Корректировка баланса' });
  await dialog.getByLabel('Сумма').fill('1500');
  await dialog.getByLabel('Причина или номер обращения').fill('обращение 401: компенсация');
  await dialog.getByRole('button', { name: 'Провести' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await waitForToast(page, 'создан запрос, его одобряет другой');
  // Nothing moved yet.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
  expect(await fact(page, 'Баланс')).toBe(before);

  await approveByTwo('обращение 401: компенсация');

  await page.reload();
  await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
  expect(await fact(page, 'Баланс')).toBe('6 500,00 ₽');
});

it('a refund above 1 000 ₽ waits for a second finance member, then the payment shows it', async () => {
  const page = await openAccount(financeA);
  const payments = page.getByRole('region', { name: 'Платежи' });
  await payments
    .getByRole('button', { name: /^Вернуть платёж / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Возврат платежа' });
  await dialog.getByLabel('Сумма, ₽ (необязательно)').fill('2000');
  await dialog.getByLabel('Причина или номер обращения').fill('обращение 402: возврат части');
  await dialog.getByRole('button', { name: 'Вернуть' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await waitForToast(page, 'создан запрос, его одобряет другой');

  await approveByTwo('обращение 402: возврат части');

  await page.reload();
  await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
  const row = page.getByRole('region', { name: 'Платежи' }).locator('tbody tr').first();
  expect(plain((await row.getByRole('cell').nth(4).textContent()) ?? '')).toBe('2 000,00 ₽');
});

it("«Чеки» of the refunded payment shows the top-up's receipt and the refund's", async () => {
  const page = await openAccount(financeA);
  await page
    .getByRole('region', { name: 'Платежи' })
    .getByRole('button', { name: /^Чеки платежа / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Чеки платежа' });
  const receipts = dialog.getByTestId('receipt');
  await receipts.nth(1).waitFor();
  expect(await receipts.evaluateAll((all) => all.map((one) => one.dataset.type))).toEqual([
    'income',
    'refund',
  ]);
  const headings = await dialog.getByRole('heading', { level: 3 }).allTextContents();
  expect(headings.map(plain)).toEqual(['Приход · 5 000,00 ₽', 'Возврат прихода · 2 000,00 ₽']);
  await dialog
    .getByRole('link', { name: /сайте ФНС/ })
    .first()
    .waitFor();
});

it('«Сверить» asks the bank about a payment and says what it answered', async () => {
  const page = await openAccount(financeA);
  await page
    .getByRole('region', { name: 'Платежи' })
    .getByRole('button', { name: /^Сверить платёж / })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Сверить с банком' });
  await dialog.getByLabel('Причина или номер обращения').fill('обращение 403: где мой платёж');
  await dialog.getByRole('button', { name: 'Сверить' }).click();
  await dialog.waitFor({ state: 'hidden' });
  // The bank confirms what the portal recorded for the paid top-up, and the page says so.
  await waitForToast(page, 'провайдер подтвердил то, что уже записано: ничего не изменилось');
});
