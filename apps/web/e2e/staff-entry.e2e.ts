import { beforeAll, describe, expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import {
  answerProofDialog,
  NOT_FOUND_HEADING,
  newCustomerAndStaff,
  type StaffCandidate,
  staffStatusFromPage,
} from '../test/support/e2e/staff-helpers';

// The way into the support desk: a customer finds nothing there; a member proves themselves
// (the step-up dialog) before the first page with data shows.
//
// The proof's 10 minutes are not tested here: the portal has no test clock a browser test could
// move, so apps/server/src/modules/staff/staff-access.test.ts covers them with the server's clock.

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

let customer: SignedInAccount;
let member: StaffCandidate;

beforeAll(async () => {
  ({ customer, member } = await newCustomerAndStaff(world(), {
    member: { role: 'support', proven: false },
  }));
});

describe('a customer', () => {
  it.each(['/staff', '/staff/audit', `/staff/accounts/{self}`])(
    'opening %s sees the ordinary not-found page',
    async (pathname) => {
      const page = await openSignedInPage(browser, customer.token);
      // `…/me` answers 404 to a customer: the browser logs it.
      browser.allowConsoleErrors(/status of 404/);
      await page.goto(url(pathname.replace('{self}', customer.userId)));
      await page.getByRole('heading', { level: 1, name: NOT_FOUND_HEADING }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Разделы поддержки' }).count()).toBe(0);
    },
  );

  it('gets the 404 of an unknown address from the staff API, with its own token', async () => {
    const page = await openSignedInPage(browser, customer.token);
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    browser.allowConsoleErrors(/status of 404/);
    expect(await staffStatusFromPage(page, '/me')).toBe(404);
    expect(await staffStatusFromPage(page, '/audit')).toBe(404);
    expect(await staffStatusFromPage(page, `/accounts/${customer.userId}`)).toBe(404);
    // The same as an address that never existed.
    expect(await staffStatusFromPage(page, '/none-such')).toBe(404);
  });
});

describe('a member without a proof', () => {
  it('is asked for the authenticator code, then sees the account', async () => {
    const page = await openSignedInPage(browser, member.token);
    // The account call is refused (403 staff_proof_required) until the proof: the browser logs it.
    browser.allowConsoleErrors(/status of 403/, /status of 400/);
    await page.goto(url(`/staff/accounts/${customer.userId}`));
    const dialog = page.getByRole('dialog', { name: 'Подтвердите, что это вы' });
    await dialog.waitFor();
    // A wrong code: refused in Russian, the dialog stays.
    await dialog.getByLabel('Код из приложения-аутентификатора').fill('000000');
    await dialog.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    expect(await dialog.getByRole('alert').textContent()).toMatch(/[а-яё]/i);

    await answerProofDialog(page, member.secret);
    await page.getByRole('heading', { level: 1, name: customer.email }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Профиль и баланс' }).waitFor();
    // The frame's nav: the pages of support's role only.
    const nav = page.getByRole('navigation', { name: 'Разделы поддержки' });
    await nav.getByRole('link', { name: 'Поиск клиента' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Журнал действий' }).count()).toBe(0);
    expect(await page.getByText(customer.userId, { exact: true }).count()).toBeGreaterThan(0);
  });

  it('sees the not-found page for a page its role may not use', async () => {
    const page = await openSignedInPage(browser, member.token);
    await page.goto(url('/staff/audit'));
    await page.getByRole('heading', { level: 1, name: NOT_FOUND_HEADING }).waitFor();
  });
});
