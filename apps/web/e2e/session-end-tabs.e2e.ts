import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import type { TestAccount } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';

// Every tab of a browser knows when its session ends: a sign-out in one tab, or the session
// ended from another device, takes each tab to /auth without a reload.

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

const SESSION_ENDED = 'Сеанс завершён. Войдите снова.';

const sidebarOf = (page: Page) => page.getByRole('complementary', { name: 'Боковая панель' });

/**
 * A signed-in tab at `pathname`, its frame drawn and its page's first reads answered: a read still
 * on its way when the session ends would take the tab to /auth before the test's own step.
 */
async function openAt(page: Page, pathname: string): Promise<Page> {
  await page.goto(url(pathname));
  await sidebarOf(page).getByRole('link', { name: 'Личные данные' }).waitFor();
  await page.waitForLoadState('networkidle');
  return page;
}

/** Two tabs of one browser (one context, one localStorage), both signed in with `token`. */
async function twoTabs(token: string): Promise<[Page, Page]> {
  const first = await openSignedInPage(browser, token);
  await openAt(first, '/profile');
  const second = await openAt(await first.context().newPage(), '/');
  return [first, second];
}

const isAtAuth = (page: Page) => page.waitForURL((address) => address.pathname === '/auth');

/** Another device signs in to the account and ends the session `token` from its devices list. */
async function endFromAnotherDevice(account: TestAccount, token: string): Promise<void> {
  const login = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
  });
  expect(login.status).toBe(200);
  const other = ((await login.json()) as { token: string }).token;
  const list = await fetch(url('/authms/api/Auth/devices'), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const devices = (await list.json()) as { id: string; isCurrent: boolean }[];
  const ended = devices.find((device) => device.isCurrent);
  if (!ended) throw new Error('the tab session is not in its own devices list');
  const answer = await fetch(url(`/authms/api/Auth/devices/${ended.id}`), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${other}` },
  });
  expect(answer.status).toBe(200);
}

describe('the end of a session in every tab', () => {
  it('a sign-out in one tab takes the other to /auth at once, without a reload', async () => {
    const account = await newSignedInAccount(world());
    const [first, second] = await twoTabs(account.token);
    // A mark on the tab's window: a reload would wipe it.
    await second.evaluate(() => Object.assign(window, { notReloaded: true }));

    await first.getByRole('button', { name: 'Выйти из аккаунта' }).click();
    await isAtAuth(first);
    await isAtAuth(second);
    await second.getByRole('heading', { name: 'Вход в личный кабинет' }).waitFor();
    expect(await second.evaluate(() => 'notReloaded' in window)).toBe(true);
    expect(await second.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    // A sign-out asked for is no ended session: no notice.
    expect(await second.getByText(SESSION_ENDED).count()).toBe(0);
  });

  it('a session ended from another device: the next request lands on /auth with the notice', async () => {
    // The requests the server refuses are logged by the browser.
    browser.allowConsoleErrors('401 (Unauthorized)');
    const account = await newSignedInAccount(world());
    const [first, second] = await twoTabs(account.token);
    await endFromAnotherDevice(account, account.token);

    // The home tab goes to its profile through the sidebar: the profile's requests are refused.
    await sidebarOf(second).getByRole('link', { name: 'Личные данные' }).click();
    await isAtAuth(second);
    await second.getByText(SESSION_ENDED).waitFor();
    expect(await second.getByText(SESSION_ENDED).count()).toBe(1);
    expect(await second.getByRole('heading', { name: 'Вход в личный кабинет' }).isVisible()).toBe(
      true,
    );
    // The other tab follows, without a request of its own, and says why as well.
    await isAtAuth(first);
    await first.getByRole('heading', { name: 'Вход в личный кабинет' }).waitFor();
    await first.getByText(SESSION_ENDED).waitFor();
  });

  it('a password reset that signs out everywhere, made in one tab, takes the other to /auth', async () => {
    // The reset tab's own session is checked after the reset, and refused.
    browser.allowConsoleErrors('401 (Unauthorized)');
    const account = await newSignedInAccount(world());
    const [first, second] = await twoTabs(account.token);
    await second.goto(url('/reset-password'));
    await second.getByPlaceholder('Ваш email').fill(account.email);
    await second.getByRole('button', { name: 'Продолжить' }).click();
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);
    await second.getByLabel('Введите код').fill(code);
    await second.getByLabel('Новый пароль').fill('Marble-Falcon72');
    await second.getByLabel('Повторите пароль').fill('Marble-Falcon72');
    const box = second.getByRole('checkbox', { name: 'Выйти из всех активных сеансов входа' });
    expect(await box.isChecked()).toBe(true);
    await second.getByRole('button', { name: 'Обновить пароль' }).click();

    await second.getByRole('heading', { name: 'Пароль обновлен' }).waitFor();
    await isAtAuth(first);
    await first.getByRole('heading', { name: 'Вход в личный кабинет' }).waitFor();
    // The reset tab keeps its last step; its token is gone with the session.
    expect(new URL(second.url()).pathname).toBe('/reset-password');
    expect(await second.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });
});
