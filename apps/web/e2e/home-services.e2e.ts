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

// The catalogue is configuration: one entry of each status, all on the sibling site (the hand-off
// allow-list), whose origin is known only once it runs.
const catalogueOf = (sibling: string) => [
  {
    imgUrl: '/images/catalogue/hosting.svg',
    title: 'Хостинг игровых серверов',
    description: 'Игровые серверы',
    link: `${sibling}/hosting`,
    status: 'active',
  },
  {
    imgUrl: '/images/catalogue/launcher.svg',
    title: 'Игровой лаунчер',
    description: 'Лаунчер',
    link: `${sibling}/launcher`,
    status: 'inactive',
  },
  {
    imgUrl: '',
    title: 'Голосовой чат',
    description: 'Скоро будет',
    link: `${sibling}/voice`,
    status: 'soon',
  },
];

const world = setupWalletWorld((sibling) => ({
  SERVICE_CATALOGUE: JSON.stringify(catalogueOf(sibling)),
}));
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function openHome(page: Page) {
  await page.goto(url('/'));
  await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
}

function detailRows(page: Page) {
  return page
    .getByRole('dialog')
    .locator('dl > div')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((row) => [
          row.querySelector('dt')?.textContent ?? '',
          (row.querySelector('dd')?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' '),
        ]),
      ),
    );
}

describe('my services', () => {
  it('lists what a sibling site sold, with details in a modal and a signed-in manage link', async () => {
    const customer = await newCustomer(world());
    await topUpThroughSandbox(world(), customer, 5000);
    const first = await sellService(world(), customer, {
      orderId: 'order-1',
      service: {
        externalId: 'srv-1',
        name: 'Minecraft Survival',
        serverCount: 2,
        autoRenew: true,
        manageUrl: `${world().siblingOrigin}/manage/srv-1`,
      },
    });
    // The second one is paid partly with the points the first one earned.
    const second = await sellService(world(), customer, {
      orderId: 'order-2',
      usePoints: true,
      service: {
        externalId: 'srv-2',
        name: 'CS2 Public',
        serverCount: 1,
        pricePerMonth: 500,
        autoRenew: false,
      },
    });
    expect(first.cashbackPoints).toBeGreaterThan(0);

    const page = await openAs(browser, customer);
    await openHome(page);
    const list = page.getByRole('region', { name: 'Мои услуги' });
    await list.getByRole('button', { name: /Minecraft Survival/ }).waitFor();
    expect(
      plain((await list.getByRole('button', { name: /Minecraft Survival/ }).textContent()) ?? ''),
    ).toContain('1 790,00 ₽/мес');

    // The wallet shows what the sales left.
    const roubles = second.balance.toLocaleString('ru-RU', { minimumFractionDigits: 2 });
    expect(await tileValue(page, 'balance')).toBe(`${plain(roubles)} ₽`);
    expect(await tileValue(page, 'cashback')).toMatch(new RegExp(`^${second.balanceStars} `));

    await list.getByRole('button', { name: /Minecraft Survival/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Minecraft Survival' });
    await dialog.waitFor();
    expect(await detailRows(page)).toMatchObject({
      Услуга: 'Minecraft Survival',
      Количество: '2',
      'Стоимость в месяц': '1 790,00 ₽',
      Автопродление: 'Включено',
      Статус: 'Активна',
    });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await list.getByRole('button', { name: /CS2 Public/ }).click();
    const other = page.getByRole('dialog', { name: 'CS2 Public' });
    await other.waitFor();
    expect(await detailRows(page)).toMatchObject({
      Количество: '1',
      'Стоимость в месяц': '500,00 ₽',
      Автопродление: 'Отключено',
    });
    // No manage address, no manage button.
    expect(await other.getByRole('button', { name: 'Управление услугой' }).count()).toBe(0);
    await other.getByRole('button', { name: 'Закрыть' }).click();
    await other.waitFor({ state: 'detached' });

    await list.getByRole('button', { name: /Minecraft Survival/ }).click();
    await page.getByRole('button', { name: 'Управление услугой' }).click();
    await page.waitForURL((address) => address.origin === world().siblingOrigin);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/manage/srv-1');
    // A single-use hand-off code, never the access token itself.
    expect(landed.searchParams.get('token')).toBeTruthy();
    expect(landed.searchParams.get('token')).not.toBe(customer.token);
  });

  it('the history shows the purchase, the points spent and the cashback earned', async () => {
    const customer = await newCustomer(world());
    await topUpThroughSandbox(world(), customer, 3000);
    await sellService(world(), customer, {
      orderId: 'hist-1',
      service: { externalId: 'hist-1', name: 'Rust', serverCount: 1, pricePerMonth: 1000 },
    });
    await sellService(world(), customer, {
      orderId: 'hist-2',
      usePoints: true,
      service: { externalId: 'hist-2', name: 'Terraria', serverCount: 1, pricePerMonth: 100 },
    });
    const page = await openAs(browser, customer);
    await page.goto(url('/wallet/history'));
    await page.getByRole('region', { name: 'Сегодня' }).waitFor();
    const entries = (await page.locator('li[data-status]').allInnerTexts()).map(plain);
    expect(entries.some((entry) => entry.includes('−1 000,00 ₽'))).toBe(true);
    expect(entries.some((entry) => entry.includes('+50 баллов'))).toBe(true);
    expect(entries.some((entry) => entry.includes('−50 баллов'))).toBe(true);
    expect(entries.some((entry) => entry.includes('+3 000,00 ₽'))).toBe(true);

    // Filters: only write-offs in points.
    await page.getByText('Списания', { exact: true }).click();
    await page.getByText('Баллы', { exact: true }).click();
    await expect
      .poll(async () => (await page.locator('li[data-status]').allInnerTexts()).map(plain))
      .toEqual([expect.stringContaining('−50 баллов')]);
    // Only accruals in roubles: the top-up alone.
    await page.getByText('Начисления', { exact: true }).click();
    await page.getByText('Рубли', { exact: true }).click();
    await expect
      .poll(async () => (await page.locator('li[data-status]').allInnerTexts()).map(plain))
      .toEqual([expect.stringContaining('+3 000,00 ₽')]);
  });

  it('with no services: the empty state and an order button that hands the user to the hosting site', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    await page.getByText('У вас сейчас нет подключенных услуг').waitFor();
    await page.getByRole('button', { name: 'Заказать сервер' }).click();
    await page.waitForURL((address) => address.origin === world().siblingOrigin);
    const token = new URL(page.url()).searchParams.get('token');
    expect(token).toBeTruthy();
    expect(token).not.toBe(customer.token);
  });
});

describe('catalogue', () => {
  it('active opens the sibling site signed in, inactive is disabled, soon says «Скоро»', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    const section = page.getByRole('region', { name: 'Сервисы' });
    await section.getByRole('heading', { name: 'Голосовой чат' }).waitFor();

    expect(
      await section.getByRole('button', { name: 'Открыть: Игровой лаунчер' }).isDisabled(),
    ).toBe(true);
    const soon = section.getByRole('listitem').filter({ hasText: 'Голосовой чат' });
    expect(await soon.getByRole('button', { name: 'Скоро' }).isDisabled()).toBe(true);

    await section.getByRole('button', { name: 'Открыть: Хостинг игровых серверов' }).click();
    await page.waitForURL((address) => address.origin === world().siblingOrigin);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/hosting');
    expect(landed.searchParams.get('token')).toBeTruthy();
  });

  it('an empty catalogue says «На стадии разработки»', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    // The server's catalogue is configuration; this one answer is replaced to see the empty state.
    await page.route('**/serversms/api/Servers/catalogue', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
    );
    await openHome(page);
    await page.getByRole('region', { name: 'Сервисы' }).getByText('На стадии разработки').waitFor();
  });
});
