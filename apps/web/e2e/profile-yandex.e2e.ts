import { YANDEX_SIGN_IN_CODE_REFUSED } from '@portal/contracts/messages';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeYandex, startFakeYandex } from '../../server/test/support/fake-yandex';
import { codeIn } from '../../server/test/support/smtp-server';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { setupPortalWithAccount } from '../test/support/e2e/fixtures';
import { userOf } from '../test/support/e2e/profile-helpers';

// Yandex ID is a local stand-in speaking its implicit flow; filled in before the portal starts.
let yandex: FakeYandex;
const portalEnv: Record<string, string> = {};
beforeAll(async () => {
  yandex = await startFakeYandex();
  Object.assign(portalEnv, yandex.config);
});
afterAll(async () => {
  await yandex?.close();
});

const env = setupPortalWithAccount(portalEnv);
const browser = setupBrowser();

/** Clicks «Войти с Яндекс ID» on the login tab: the portal's authorize address, then Yandex. */
async function startYandexSignIn(page: Page) {
  await page.getByRole('button', { name: 'Войти с Яндекс ID' }).click();
}

/** Every address the page's main frame went to, in order. */
function visitedUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  return urls;
}

describe('Yandex ID', () => {
  it('signs in a new user through the stand-in: /oauth → callback → /auth?yandexCode → home', async () => {
    const { portal } = env();
    const email = `ya.${Date.now().toString(36)}@yandex.ru`;
    yandex.signInAs({
      id: String(Date.now()),
      login: 'yandex.player',
      default_email: email,
      first_name: 'Алексей',
      last_name: 'Смирнов',
    });
    const page = await browser.newPage();
    const visited = visitedUrls(page);
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);

    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(await userOf(portal.baseUrl, token ?? '')).toMatchObject({
      email,
      userName: 'yandex.player',
      firstName: 'Алексей',
    });
    // The session token never was in an address: /auth got a one-time code instead.
    expect(visited.some((address) => new URL(address).searchParams.has('yandexCode'))).toBe(true);
    expect(visited.filter((address) => address.includes(token ?? ''))).toEqual([]);
    expect(page.url()).not.toContain('yandexCode');
  });

  it('refuses the /auth?yandexCode= address in another browser, and it still works in its own', async () => {
    const { portal } = env();
    yandex.signInAs({
      id: `c${Date.now()}`,
      login: 'code.owner',
      default_email: `c${Date.now()}@ya.ru`,
    });
    const page = await browser.newPage();
    const visited = visitedUrls(page);
    // Hold the exchange back, so the code is still unused when it is copied.
    let releaseExchange: () => void = () => {};
    const exchangeHeld = new Promise<void>((resolve) => {
      void page.route('**/auth/yandex/exchange', async (route) => {
        resolve();
        await new Promise<void>((release) => {
          releaseExchange = release;
        });
        await route.continue();
      });
    });
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);
    await exchangeHeld;
    const withCode = visited.find((address) => new URL(address).searchParams.has('yandexCode'));
    expect(withCode).toBeDefined();

    // The address alone (from the history, a log, a message) is worth nothing elsewhere.
    browser.allowConsoleErrors(/status of 400/);
    const other = await browser.newPage();
    await other.goto(withCode!);
    await waitForToast(other, YANDEX_SIGN_IN_CODE_REFUSED);
    await other.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    expect(new URL(other.url()).pathname).toBe('/auth');
    expect(new URL(other.url()).searchParams.has('yandexCode')).toBe(false);
    expect(await other.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

    releaseExchange();
    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toMatch(/^[\w-]{40,}$/);
  });

  it('does not take over an existing account by its e-mail', async () => {
    const { portal, account } = env();
    yandex.signInAs({ id: `x${Date.now()}`, login: 'intruder', default_email: account.email });
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);
    await page.waitForURL((address) => address.searchParams.has('yandexError'));
    // The page shows the reason and takes it out of the address at once: wait for what is seen.
    await waitForToast(page, 'Аккаунт с этой почтой уже есть');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect((await userOf(portal.baseUrl, account.token)).yandexId).toBeNull();
  });

  it('comes back to /auth with the reason when the user cancels at Yandex', async () => {
    const { portal } = env();
    yandex.denyNext();
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);
    await page.waitForURL((address) => address.searchParams.has('yandexError'));
    await waitForToast(page, 'Вход через Яндекс ID отменён');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  it('unlinks Yandex ID only once the account has a password of its own', async () => {
    const { portal, smtp } = env();
    const email = `ya.unlink.${Date.now().toString(36)}@yandex.ru`;
    yandex.signInAs({
      id: `u${Date.now()}`,
      login: `ya.unlink${Date.now().toString(36)}`,
      default_email: email,
      first_name: 'Ольга',
      last_name: 'Иванова',
    });
    const page = await browser.newPage({ colorScheme: 'light' });
    await page.goto(`${portal.baseUrl}/auth`);
    await startYandexSignIn(page);
    await page.waitForURL((address) => address.pathname === '/');
    const token = (await page.evaluate(() => localStorage.getItem('access_token'))) ?? '';
    const api = (path: string, body?: unknown) =>
      fetch(`${portal.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // No password: the owner proves it by a code from the mailbox.
    expect((await api('/authms/api/Auth/proof/email-code')).status).toBe(200);
    const proofCode = codeIn((await smtp.waitForLetter(email)).text);
    expect((await api('/authms/api/Auth/proof', { emailCode: proofCode })).status).toBe(200);

    await page.goto(`${portal.baseUrl}/profile`);
    const setting = page.getByTestId('yandex-setting');
    await expect.poll(() => page.getByTestId('yandex-status').textContent()).toBe('Подключено');
    await setting.getByRole('button', { name: 'Отвязать' }).click();
    const dialog = page.getByRole('dialog', { name: 'Отвязать Яндекс ID?' });
    browser.allowConsoleErrors(/status of 409/);
    await dialog.getByRole('button', { name: 'Отвязать' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/Сначала задайте пароль/)
      .waitFor();
    expect((await userOf(portal.baseUrl, token)).yandexId).not.toBeNull();
    await dialog.getByRole('button', { name: 'Отмена' }).click();

    // A password set by the reset's mailed code; the session (and its proof) stay.
    expect((await api('/authms/api/Auth/forgot-password', { email })).status).toBe(200);
    const resetCode = codeIn((await smtp.waitForLetter(email)).text);
    const reset = await api('/authms/api/Auth/reset-password-with-code', {
      email,
      code: resetCode,
      newPassword: 'Birch-Lantern47',
    });
    expect(reset.status).toBe(200);

    await setting.getByRole('button', { name: 'Отвязать' }).click();
    await dialog.getByRole('button', { name: 'Отвязать' }).click();
    await dialog.waitFor({ state: 'detached' });
    await waitForToast(page, 'Яндекс ID отвязан');
    await expect.poll(() => page.getByTestId('yandex-status').textContent()).toBe('Не подключено');
    expect((await userOf(portal.baseUrl, token)).yandexId).toBeNull();
  });
});
