import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations, settled } from '../test/support/e2e/a11y-helpers';
import {
  enableAuthenticator,
  postJson,
  signInByForm,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { openProfile } from '../test/support/e2e/profile-helpers';
import {
  type Customer,
  newCustomer,
  setupWalletWorld,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

const section = (page: Page) => page.getByRole('region', { name: 'Мои данные и аккаунт' });

/** The dialog's proof step, answered with the password (the server asks: a 403 first). */
async function proveWithPassword(page: Page, dialogName: string, customer: Customer) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByLabel('Текущий пароль').fill(customer.password);
  await dialog.getByRole('button', { name: 'Продолжить' }).click();
}

/** «Удалить аккаунт» → the confirmation → «Удалить через 7 дней» → the password. */
async function askForDeletion(page: Page, customer: Customer) {
  await section(page).getByRole('button', { name: 'Удалить аккаунт' }).click();
  const confirm = page.getByRole('dialog', { name: 'Удалить аккаунт?' });
  await confirm.getByRole('button', { name: 'Удалить через 7 дней' }).click();
  await proveWithPassword(page, 'Удалить аккаунт?', customer);
}

describe('«Мои данные и аккаунт» on /profile', () => {
  it('downloads the account’s data as one JSON file after the password', async () => {
    const customer = await newCustomer(world());
    const page = await openProfile(browser, world().portal.baseUrl, customer.token);
    browser.allowConsoleErrors(/status of 403/);
    await section(page).getByRole('button', { name: 'Скачать' }).click();
    const downloaded = page.waitForEvent('download');
    await proveWithPassword(page, 'Скачать мои данные', customer);
    const download = await downloaded;
    const today = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toBe(`moi-dannye-${customer.username}-${today}.json`);
    const file = JSON.parse(await readFile((await download.path()) ?? '', 'utf8'));
    expect(file.profile.email).toBe(customer.email);
    expect(file.securityLog.length).toBeGreaterThan(0);
    expect(JSON.stringify(file)).not.toMatch(/argon2|passwordHash|secret/i);
    await waitForToast(page, 'Файл с данными скачан');
  });

  it('refuses the deletion while roubles remain, saying what to do before asking for a proof', async () => {
    const customer = await newCustomer(world());
    await topUpThroughSandbox(world(), customer, 100);
    const page = await openProfile(browser, world().portal.baseUrl, customer.token);
    browser.allowConsoleErrors(/status of 409/);
    await section(page).getByRole('button', { name: 'Удалить аккаунт' }).click();
    const confirm = page.getByRole('dialog', { name: 'Удалить аккаунт?' });
    await confirm.getByRole('button', { name: 'Удалить через 7 дней' }).click();
    const refusal = page.getByTestId('deletion-refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/остались рубли.*поддержку/);
    // Nobody is asked to prove who they are for an action that would be refused.
    expect(await page.getByLabel('Текущий пароль').count()).toBe(0);
    // Still signed in: nothing happened to the account.
    await page.reload();
    await section(page).waitFor();
  });

  it('schedules the deletion, signs out, and the letter’s link cancels it with a button', async () => {
    const customer = await newCustomer(world());
    const page = await openProfile(browser, world().portal.baseUrl, customer.token);
    browser.allowConsoleErrors(/status of 403/);
    await askForDeletion(page, customer);
    await waitForToast(page, 'Аккаунт будет удалён');
    await page.waitForURL(url('/auth'));

    const letter = await world().smtp.waitForLetter(customer.email);
    expect(letter.subject).toContain('аккаунт будет удалён');
    const link = /https?:\/\/\S+\/account\/cancel-deletion\?token=[A-Za-z0-9_-]+/.exec(
      letter.text,
    )?.[0];
    expect(link).toBeTruthy();
    const cancelUrl = url(new URL(link ?? '').pathname + new URL(link ?? '').search);
    // A mail scanner opening the link changes nothing.
    expect((await fetch(cancelUrl, { headers: { accept: 'text/html' } })).status).toBe(200);

    const cancelPage = await browser.newPage();
    await cancelPage.goto(cancelUrl);
    await cancelPage.getByRole('heading', { level: 1, name: 'Отмена удаления аккаунта' }).waitFor();
    await cancelPage.getByRole('button', { name: 'Отменить удаление' }).click();
    await expect
      .poll(() => cancelPage.getByTestId('cancel-outcome').textContent())
      .toContain('Удаление аккаунта отменено');
    const cancelled = await world().smtp.waitForLetter(customer.email);
    expect(cancelled.subject).toContain('удаление аккаунта отменено');

    // The same link a second time says why it no longer works.
    browser.allowConsoleErrors(/status of 404/);
    await cancelPage.reload();
    await cancelPage.getByRole('button', { name: 'Отменить удаление' }).click();
    await expect
      .poll(() => cancelPage.getByTestId('cancel-outcome').textContent())
      .toMatch(/войдите/);
  });

  it('a sign-in cancels a scheduled deletion, and says so after it and by letter', async () => {
    const customer = await newCustomer(world());
    await postJson(url('/authms/api/Auth/proof'), { password: customer.password }, customer.token);
    await postJson(url('/authms/api/Auth/account-data/deletion'), {}, customer.token);
    expect((await world().smtp.waitForLetter(customer.email)).subject).toContain('будет удалён');

    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await signInByForm(page, customer.username, customer.password);
    await page.waitForURL(url('/'));
    await waitForToast(page, 'Удаление аккаунта отменено: вы вошли в аккаунт');
    // This browser is a new device for the account: its sign-in alert may come first.
    let letter = await world().smtp.waitForLetter(customer.email);
    if (letter.subject.includes('вход с нового устройства')) {
      letter = await world().smtp.waitForLetter(customer.email);
    }
    expect(letter.subject).toContain('удаление аккаунта отменено');
    expect(letter.text).toContain('выполнен вход');
    // Told once: the profile shows no banner afterwards.
    await page.goto(url('/profile'));
    await section(page).waitFor();
    await settled(page);
    expect(await page.getByTestId('deletion-cancelled').count()).toBe(0);
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`reads at 375 px in the ${colorScheme} theme with no serious axe violation`, async () => {
      const customer = await newCustomer(world());
      const page = await browser.newPage({
        viewport: MOBILE_VIEWPORT,
        colorScheme,
        localStorage: { access_token: customer.token },
      });
      await page.goto(url('/profile'));
      await section(page).waitFor();
      await section(page).scrollIntoViewIfNeeded();
      await settled(page);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        MOBILE_VIEWPORT.width,
      );

      await section(page).getByRole('button', { name: 'Удалить аккаунт' }).click();
      await page.getByRole('dialog', { name: 'Удалить аккаунт?' }).waitFor();
      // The pointer off the dialog's buttons: axe judges the colours at rest, not under a hover.
      await page.mouse.move(0, 0);
      await settled(page);
      expect(await seriousViolations(page)).toEqual([]);

      const cancelPage = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme });
      await cancelPage.goto(url('/account/cancel-deletion?token=AAAAAAAAAAAAAAAAAAAAAAAA'));
      await cancelPage.getByRole('button', { name: 'Отменить удаление' }).waitFor();
      await settled(cancelPage);
      expect(await seriousViolations(cancelPage)).toEqual([]);
      expect(
        await cancelPage.evaluate(() => document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
    });
  }
});

describe('destructive actions', () => {
  it('«Удалить аккаунт» and the authenticator’s «Отключить» are red, in the section and in the dialog', async () => {
    const customer = await newCustomer(world());
    await enableAuthenticator(world().portal.baseUrl, customer);
    const page = await openProfile(browser, world().portal.baseUrl, customer.token);
    // How a button is painted: its background, text and border colours.
    const background = (button: Locator) =>
      button.evaluate((element) => {
        const style = getComputedStyle(element);
        return `${style.backgroundColor} ${style.color} ${style.borderTopColor}`;
      });
    const deleteButton = section(page).getByRole('button', { name: 'Удалить аккаунт' });
    const danger = await background(deleteButton);
    const twoFactor = page.getByTestId('two-factor');
    expect(await background(twoFactor.getByRole('button', { name: 'Отключить' }))).toBe(danger);
    expect(
      await background(twoFactor.getByRole('button', { name: 'Новые резервные коды' })),
    ).not.toBe(danger);
    await twoFactor.getByRole('button', { name: 'Отключить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Отключить Google Authenticator?' });
    expect(await background(dialog.getByRole('button', { name: 'Отключить' }))).toBe(danger);
  });
});
