import { STAFF_API } from '@portal/contracts/staff';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import { failScripts, paste } from '../test/support/e2e/page-helpers';
import {
  newCustomerAndStaff,
  nextTotpCode,
  type StaffCandidate,
} from '../test/support/e2e/staff-helpers';

// The support desk recovers as the customer's pages do: its code (the /staff area, its dialogs)
// failing to load says «Нет соединения» with «Повторить», which then works; the step-up's code
// field takes a code as people type and paste it; and the sessions support ends leave every tab
// of the customer for /auth. The customer's pages: e2e/lazy-parts-offline.e2e.ts,
// e2e/typed-codes.e2e.ts, e2e/session-end-tabs.e2e.ts.

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const baseUrl = () => world().portal.baseUrl;
const url = (pathname: string) => `${baseUrl()}${pathname}`;

/** Only looked at (the step-up's test): the tests that end sessions make their own. */
let customer: SignedInAccount;
/** Proven (its recovery codes through the API): the desk opens without the step-up. */
let admin: StaffCandidate;
/** Never proven by the API: the desk asks it for the authenticator's code. */
let support: StaffCandidate;

beforeAll(async () => {
  ({ customer, admin, support } = await newCustomerAndStaff(world(), {
    admin: { role: 'admin', proven: true },
    support: { role: 'support', proven: false },
  }));
});

const noConnection = (page: Page) => page.getByRole('alert').filter({ hasText: 'Нет соединения' });

/** A signed-in page of the customer's, its first reads answered. */
async function openHome(token: string, options: { colorScheme?: 'light' | 'dark' } = {}) {
  const page = await openSignedInPage(browser, token, options);
  await page.goto(url('/'));
  await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
  await page.waitForLoadState('networkidle');
  return page;
}

describe.each(['light', 'dark'] as const)('%s theme', (colorScheme) => {
  it('the /staff area whose code fails says «Нет соединения» on the page; «Повторить» then opens it', async () => {
    const page = await openHome(admin.token, { colorScheme });
    const restore = await failScripts(browser, page, /staff-area/);
    await page.goto(url('/staff'));
    const failed = noConnection(page);
    await failed.waitFor();
    // Still failing: «Повторить» asks again and says the same; never a button that does nothing.
    const tried = page.waitForRequest(/staff-area-/);
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await tried;
    await failed.waitFor();

    await restore();
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await page.getByRole('heading', { level: 1, name: 'Поиск клиента' }).waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('a dialog of the account page whose code fails says «Нет соединения»; «Повторить» opens it and it works', async () => {
    const customer = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, admin.token, { colorScheme });
    await page.goto(url(`/staff/accounts/${customer.userId}`));
    await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
    const restore = await failScripts(browser, page, /modal-dialog/);
    await page.getByRole('button', { name: 'Завершить все сеансы', exact: true }).click();
    const failed = noConnection(page);
    await failed.waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);

    await restore();
    await failed.getByRole('button', { name: 'Повторить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Завершить все сеансы' });
    await dialog.getByLabel('Причина или номер обращения').fill('обращение 301: нет связи');
    await dialog.getByRole('button', { name: 'Завершить все сеансы', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await waitForToast(page, 'Завершено сеансов');
    expect(await failed.count()).toBe(0);
  });
});

it('the /staff area that could not load while offline comes by itself once the browser is back online', async () => {
  const page = await openHome(admin.token);
  await page.context().setOffline(true);
  browser.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/, /dynamically imported module/);
  // An in-app move to the desk: a reload would have no page at all offline.
  await page.evaluate(() => {
    history.pushState(null, '', '/staff');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await noConnection(page).waitFor();
  await page.context().setOffline(false);
  await page.getByRole('heading', { level: 1, name: 'Поиск клиента' }).waitFor();
});

/** Full-width digits, as an East Asian keyboard layout types them. */
const fullWidth = (code: string) =>
  code.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));

it('the step-up’s code field takes «123 456», «123-456», a pasted line and full-width digits', async () => {
  const page = await openSignedInPage(browser, support.token);
  // The account call waits for the proof (403), and each wrong code below is refused (400).
  browser.allowConsoleErrors(/status of 403/, /status of 400/);
  await page.goto(url(`/staff/accounts/${customer.userId}`));
  const dialog = page.getByRole('dialog', { name: 'Подтвердите, что это вы' });
  const field = dialog.getByLabel('Код из приложения-аутентификатора');
  await field.waitFor();

  // Each way of giving a (wrong) code sends its six digits, and nothing else.
  const ways: [string, () => Promise<void>][] = [
    ['typed with a space', () => field.pressSequentially('123 456')],
    ['typed with a dash', () => field.pressSequentially('123-456')],
    ['pasted with a dash', () => paste(field, '123-456')],
    ['pasted as a line with spaces around', () => paste(field, ' 123 456 \n')],
    ['pasted in full-width digits', () => paste(field, fullWidth('123456'))],
    ['typed in full-width digits', () => page.keyboard.insertText(fullWidth('123456'))],
  ];
  const sent: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`${STAFF_API}/proof`)) sent.push(request.postDataJSON());
  });
  for (const [index, [way, give]] of ways.entries()) {
    await field.focus();
    await give();
    // The way in both sides: a failure names it.
    await expect
      .poll(() => ({ way, sent: sent[index] }))
      .toEqual({ way, sent: { code: '123456' } });
    // Refused (the code is wrong): the boxes empty for the next try.
    await expect
      .poll(async () => ({ way, left: await field.inputValue() }))
      .toEqual({ way, left: '' });
  }

  // The right code, typed in full-width digits, proves the member.
  await field.focus();
  await page.keyboard.insertText(fullWidth(nextTotpCode(support.secret)));
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
});

it('sessions ended by support take every tab of the customer to /auth, saying why', async () => {
  // The customer's requests the server refuses are logged by the browser.
  browser.allowConsoleErrors(/status of 401/);
  const customer = await newSignedInAccount(world());
  const first = await openHome(customer.token);
  const second = await first.context().newPage();
  await second.goto(url('/'));
  await second.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
  await second.waitForLoadState('networkidle');
  // A mark on the tab's window: a reload would wipe it.
  await second.evaluate(() => Object.assign(window, { notReloaded: true }));

  const staff = await openSignedInPage(browser, admin.token);
  await staff.goto(url(`/staff/accounts/${customer.userId}`));
  await staff.getByRole('heading', { level: 1, name: customer.email }).waitFor();
  await staff.getByRole('button', { name: 'Завершить все сеансы', exact: true }).click();
  const dialog = staff.getByRole('dialog', { name: 'Завершить все сеансы' });
  await dialog.getByLabel('Причина или номер обращения').fill('обращение 302: потерял телефон');
  await dialog.getByRole('button', { name: 'Завершить все сеансы', exact: true }).click();
  await waitForToast(staff, 'Завершено сеансов');

  // The customer's tab moves on in the app: its next request is refused, and it goes to /auth.
  await second
    .getByRole('complementary', { name: 'Боковая панель' })
    .getByRole('link', { name: 'Личные данные' })
    .click();
  for (const tab of [second, first]) {
    await tab.waitForURL((address) => address.pathname === '/auth');
    await tab.getByRole('heading', { name: 'Вход в личный кабинет' }).waitFor();
    await tab.getByText('Сеанс завершён. Войдите снова.').waitFor();
  }
  expect(await second.evaluate(() => 'notReloaded' in window)).toBe(true);
});
