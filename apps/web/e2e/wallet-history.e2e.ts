import { describe, expect, it } from 'vitest';
import { waitForToast } from './auth-helpers';
import { setupBrowser } from './browser';
import {
  newCustomer,
  openAs,
  plain,
  setupWalletWorld,
  topUpThroughSandbox,
} from './wallet-helpers';

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;
const entries = 'li[data-status]';

describe('/wallet/history', () => {
  it('shows a loading state, then the entries of the day; pages with «Показать ещё»', async () => {
    const customer = await newCustomer(world());
    // One more than a page (20): the oldest is 10 ₽, the newest 31 ₽.
    for (let roubles = 10; roubles <= 31; roubles += 1) {
      await topUpThroughSandbox(world(), customer, roubles);
    }
    const page = await openAs(browser, customer);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/payments/payments/user?*', async (route) => {
      // Hold only the list's first page; the chart's request passes.
      if (new URL(route.request().url()).searchParams.get('limit') === '20') await held;
      await route.continue();
    });
    await page.goto(url('/wallet/history'));
    await page.getByRole('list', { name: 'Загрузка истории' }).waitFor();
    expect(await page.locator(entries).count()).toBe(0);
    release();

    await page.getByRole('region', { name: 'Сегодня' }).waitFor();
    const firstPage = (await page.locator(entries).allInnerTexts()).map(plain);
    expect(firstPage).toHaveLength(20);
    expect(firstPage[0]).toContain('+31,00 ₽');
    expect(await page.getByRole('list', { name: 'Загрузка истории' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Показать ещё' }).click();
    await expect.poll(() => page.locator(entries).count()).toBe(22);
    const all = (await page.locator(entries).allInnerTexts()).map(plain);
    expect(all.at(-1)).toContain('+10,00 ₽');
    // Every entry once, newest first.
    expect(all.map((text) => /\+(\d+),00 ₽/.exec(text)?.[1])).toEqual(
      Array.from({ length: 22 }, (_, index) => String(31 - index)),
    );
    expect(await page.getByRole('button', { name: 'Показать ещё' }).count()).toBe(0);
  });

  it('says so when there is nothing yet', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await page.goto(url('/wallet/history'));
    await page.getByText('Операций пока нет').waitFor();
    expect(await page.locator(entries).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Показать ещё' }).count()).toBe(0);
  });

  it('a failed load ends loading with an empty list and the server message', async () => {
    const customer = await newCustomer(world());
    await topUpThroughSandbox(world(), customer, 100);
    const page = await openAs(browser, customer);
    browser.allowConsoleErrors('Failed to load resource');
    await page.route('**/payments/payments/user?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'История временно недоступна' }),
      }),
    );
    await page.goto(url('/wallet/history'));
    await waitForToast(page, 'История временно недоступна');
    await page.getByText('Операций пока нет').waitFor();
    expect(await page.getByRole('list', { name: 'Загрузка истории' }).count()).toBe(0);
  });
});
