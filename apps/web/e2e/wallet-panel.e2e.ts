import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newCustomer,
  openAs,
  plain,
  sellService,
  setupWalletWorld,
  tileValue,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function openHome(page: Page) {
  await page.goto(url('/'));
  await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
  await page.getByTestId('balance-value').getByText('₽').waitFor();
}

describe('wallet panel', () => {
  it('shows the balance with two decimals and ₽, the points, and overdraft as «Скоро»', async () => {
    const customer = await newCustomer(world());
    await topUpThroughSandbox(world(), customer, 2000);
    // A purchase paid partly in points needs points: the first one earns them (5 %).
    await sellService(world(), customer, {
      orderId: 'panel-1',
      service: {
        externalId: 'srv-panel-1',
        name: 'Minecraft',
        serverCount: 1,
        pricePerMonth: 1000,
      },
    });
    const page = await openAs(browser, customer);
    await openHome(page);
    expect(await tileValue(page, 'balance')).toBe('1 000,00 ₽');
    expect(await tileValue(page, 'cashback')).toBe('50 баллов');
    expect(await tileValue(page, 'overdraft')).toBe('Скоро');
  });

  it('the cashback dialog explains points and leads to the history', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    await page.getByRole('button', { name: 'Что такое баллы кэшбэка' }).click();
    const dialog = page.getByRole('dialog', { name: 'Баллы кэшбэка' });
    await dialog.waitFor();
    const text = plain((await dialog.textContent()) ?? '');
    expect(text).toContain('1 балл = 1 ₽');
    expect(text).toContain('5%');
    await dialog.getByRole('link', { name: 'История начислений и списаний' }).click();
    await page.waitForURL((address) => address.pathname === '/wallet/history');
    await page.getByRole('heading', { level: 1, name: 'История начислений и списаний' }).waitFor();
    expect(await dialog.count()).toBe(0);
  });

  it('the cashback dialog closes with «Понятно»', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    await page.getByRole('button', { name: 'Что такое баллы кэшбэка' }).click();
    const dialog = page.getByRole('dialog', { name: 'Баллы кэшбэка' });
    await dialog.getByRole('button', { name: 'Понятно' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('the overdraft dialog says it is not connected and unavailable, and closes with OK', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    await page.getByRole('button', { name: 'Что такое овердрафт' }).click();
    const dialog = page.getByRole('dialog', { name: 'Овердрафт' });
    await dialog.waitFor();
    const text = plain((await dialog.textContent()) ?? '');
    expect(text).toContain('Овердрафт не подключён');
    expect(text).toContain('даже когда на балансе нет средств');
    expect(text).toContain('Подключение и использование овердрафта временно недоступны');
    await dialog.getByRole('button', { name: 'OK', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // Focus goes back to the button that opened it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null))
      .toBe('Что такое овердрафт');
  });

  it('the balance tile opens the top-up modal', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    await page
      .getByRole('region', { name: 'Баланс' })
      .getByRole('button', { name: 'Пополнить' })
      .click();
    await page.getByRole('dialog', { name: 'Пополнение баланса' }).waitFor();
  });
});
