import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pngImage } from '../../server/test/support/images';
import { setupBrowser } from '../test/support/e2e/browser';
import { userOf } from '../test/support/e2e/profile-helpers';
import { newCustomer, openAs, setupWalletWorld } from '../test/support/e2e/wallet-helpers';

// Closing a dialog gives up what it started: the request in flight is aborted and its answer,
// if one still comes, changes nothing on the page.

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** Holds every request to `pattern` until `release()`; then lets it go on, if it still can. */
async function hold(page: Page, pattern: string) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrived = new Promise<void>((resolve) => {
    void page.route(pattern, async (route: Route) => {
      resolve();
      await released;
      // An aborted request is gone: nothing is left to continue.
      await route.continue().catch(() => {});
    });
  });
  return { arrived, release };
}

/** Whether the page gave the request up (aborted) or saw it through, whichever comes first. */
function fateOf(page: Page, matches: (request: Request) => boolean) {
  return new Promise<'aborted' | 'answered'>((resolve) => {
    page.on('requestfailed', (request) => {
      if (matches(request)) resolve('aborted');
    });
    page.on('requestfinished', (request) => {
      if (matches(request)) resolve('answered');
    });
  });
}

const pathOf = (request: Request) => new URL(request.url()).pathname;

describe('closing a dialog cancels its request', () => {
  it('top-up: closed while the payment is being created, the browser stays and nothing is said', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    const creation = await hold(page, '**/paymentms/api/Payment/create');
    const fate = fateOf(page, (request) => pathOf(request) === '/paymentms/api/Payment/create');
    let toBank = false;
    page.on('request', (request) => {
      if (pathOf(request).startsWith('/sandbox/')) toBank = true;
    });

    await page.getByRole('button', { name: 'Пополнить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Пополнение баланса' });
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await creation.arrived;
    await dialog.getByRole('status', { name: 'Создаём платёж' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    creation.release();

    expect(await fate).toBe('aborted');
    // The page is still the home page, and is still usable: a new top-up dialog opens.
    await page.getByRole('button', { name: 'Пополнить' }).click();
    await page.getByRole('dialog', { name: 'Пополнение баланса' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(toBank).toBe(false);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
  });

  it('avatar: «Мои данные» closed while the upload is under way, the avatar stays as it was', async () => {
    const customer = await newCustomer(world());
    const file = path.join(tmpdir(), `avatar-cancel-${Date.now()}.png`);
    writeFileSync(file, await pngImage(300, 300));
    const page = await openAs(browser, customer);
    await page.goto(url('/profile'));
    await page.getByRole('heading', { level: 1, name: 'Личные данные' }).waitFor();
    const avatarBefore = await page.getByTestId('avatar').first().innerHTML();
    const upload = await hold(page, '**/upload');
    const fate = fateOf(page, (request) => pathOf(request) === '/upload');
    let isAvatarSet = false;
    page.on('request', (request) => {
      if (pathOf(request).endsWith('/update-avatar')) isAvatarSet = true;
    });

    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    await dialog.getByLabel('Файл аватара').setInputFiles(file);
    await upload.arrived;
    await dialog.getByRole('progressbar', { name: 'Загрузка аватара' }).waitFor();
    await dialog.getByRole('button', { name: 'Закрыть' }).click();
    await dialog.waitFor({ state: 'detached' });
    upload.release();

    expect(await fate).toBe('aborted');
    expect(isAvatarSet).toBe(false);
    expect((await userOf(world().portal.baseUrl, customer.token)).avatarUrl).toBeNull();
    // Opened again, the dialog starts afresh: no upload under way, the old avatar.
    await page.getByRole('button', { name: 'Мои данные' }).click();
    await dialog.getByText('PNG или JPEG', { exact: true }).waitFor();
    expect(await page.getByTestId('avatar').first().innerHTML()).toBe(avatarBefore);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
  });
});
