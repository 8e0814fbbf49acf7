import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  fillRegistration,
  newAccount,
  signInByForm,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import { failScripts } from '../test/support/e2e/page-helpers';

// The parts whose code loads when first needed (on /auth the Регистрация tab, the code screen,
// the form's schema; on the signed-in pages the dialogs): without a connection each says so —
// «Нет соединения» with «Повторить» in the card or the page, or a toast for a form's check — and
// works once the connection is back, without a reload. Pages do the same:
// e2e/network-recovery.e2e.ts.
const NO_CONNECTION = 'Нет соединения с сервером. Проверьте интернет и повторите.';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function openAuth(page: Page) {
  await page.goto(url('/auth'));
  await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
}

/** The failure is shown inside the card, as a part of it, not as a page of its own. */
async function expectInsideCard(failed: Locator, card: Locator) {
  const [inner, outer] = await Promise.all([failed.boundingBox(), card.boundingBox()]);
  if (!inner || !outer) throw new Error('the failure or the card is not on screen');
  expect(inner.y).toBeGreaterThanOrEqual(outer.y);
  expect(inner.y + inner.height).toBeLessThanOrEqual(outer.y + outer.height);
  // As tall as its text and button, not the 40% of the screen a failed page takes.
  expect(inner.height).toBeLessThan(200);
  // Its words read in the theme: the text colour is the theme's, not the card's background.
  const [color, background] = await Promise.all([
    failed.getByText('Нет соединения').evaluate((element) => getComputedStyle(element).color),
    card.evaluate((element) => getComputedStyle(element).backgroundColor),
  ]);
  expect(color).not.toBe(background);
}

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  it('the Регистрация tab whose code fails says «Нет соединения» in the card; «Повторить» then shows the form', async () => {
    const page = await browser.newPage({ colorScheme: theme });
    await openAuth(page);
    const restore = await failScripts(browser, page, /register-form/);
    await page.getByRole('tab', { name: 'Регистрация' }).click();
    const panel = page.getByRole('tabpanel');
    const failed = panel.getByRole('alert').filter({ hasText: 'Нет соединения' });
    await failed.waitFor();
    await expectInsideCard(failed, page.locator('main section'));
    // Still failing: «Повторить» asks again and says the same; never a button that does nothing.
    const tried = page.waitForRequest(/register-form-/);
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await tried;
    await failed.waitFor();

    await restore();
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await panel.getByLabel('Почта', { exact: true }).waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('a sign-in whose check cannot load says there is no connection and keeps the form; then «Войти» works', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({ colorScheme: theme });
    await openAuth(page);
    // The check's code (the zod resolver and the contracts' schemas) fails from the first
    // keystroke on: typing stays quiet, the submit says why it goes nowhere.
    const restore = await failScripts(browser, page, /(zod|auth)/);
    await signInByForm(page, account.username, account.password);
    await waitForToast(page, NO_CONNECTION);
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(await page.getByLabel('Логин или почта').inputValue()).toBe(account.username);
    expect(await page.getByLabel('Пароль', { exact: true }).inputValue()).toBe(account.password);

    await restore();
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.waitForURL((address) => address.pathname === '/');
    await waitForToast(page, 'Успешный вход');
  });

  it('the code screen whose code fails after a registration says so in the card; «Повторить» then shows it', async () => {
    const page = await browser.newPage({ colorScheme: theme });
    await openAuth(page);
    await fillRegistration(page, newAccount());
    const restore = await failScripts(browser, page, /registration-code-step/);
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    const failed = page.getByRole('alert').filter({ hasText: 'Нет соединения' });
    await failed.waitFor();
    await expectInsideCard(failed, page.locator('main section'));

    await restore();
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await page.getByRole('heading', { level: 1, name: 'Подтверждение почты' }).waitFor();
    expect(await failed.count()).toBe(0);
  });
});

it('a dialog of /profile whose code fails says «Нет соединения»; «Повторить» then opens it', async () => {
  const account = await newSignedInAccount(world());
  const page = await openSignedInPage(browser, account.token);
  await page.goto(url('/profile'));
  await page.getByRole('heading', { level: 1, name: 'Личные данные' }).waitFor();
  const restore = await failScripts(browser, page, /my-data-modal/);
  await page.getByRole('button', { name: 'Мои данные' }).click();
  const failed = page.getByRole('alert').filter({ hasText: 'Нет соединения' });
  await failed.waitFor();
  expect(await page.getByRole('dialog').count()).toBe(0);

  await restore();
  await failed.getByRole('button', { name: 'Повторить' }).click();
  await page.getByRole('dialog', { name: 'Мои данные' }).getByLabel('Никнейм').waitFor();
  expect(await failed.count()).toBe(0);
});

it('a part that could not load while offline comes by itself once the browser is back online', async () => {
  const page = await browser.newPage();
  await openAuth(page);
  await page.context().setOffline(true);
  browser.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/, /dynamically imported module/);
  await page.getByRole('tab', { name: 'Регистрация' }).click();
  await page
    .getByRole('tabpanel')
    .getByRole('alert')
    .filter({ hasText: 'Нет соединения' })
    .waitFor();
  await page.context().setOffline(false);
  await page.getByRole('tabpanel').getByLabel('Почта', { exact: true }).waitFor();
});
