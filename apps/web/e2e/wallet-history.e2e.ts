import { readFile } from 'node:fs/promises';
import { SANDBOX_HEADING } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { horizontalOverflow } from '../test/support/e2e/a11y-helpers';
import { postJson } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import {
  newCustomer,
  openAs,
  plain,
  sellService,
  setupWalletWorld,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

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

  it("a failed load says why in the list's place, once, and «Повторить» reads it again", async () => {
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
    const failed = page.getByRole('alert').filter({ hasText: 'История временно недоступна' });
    await failed.waitFor();
    expect(await page.getByRole('list', { name: 'Загрузка истории' }).count()).toBe(0);
    // Said once, in the list's place: not a toast as well.
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);

    await page.unroute('**/payments/payments/user?*');
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await page.locator(entries).first().waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('downloads what the filters show as a CSV file that a spreadsheet opens', async () => {
    const customer = await newCustomer(world());
    await topUpThroughSandbox(world(), customer, 10);
    await topUpThroughSandbox(world(), customer, 11);
    const page = await openAs(browser, customer);
    await page.goto(url('/wallet/history'));
    await page.getByRole('radio', { name: 'Рубли' }).click();
    await expect.poll(() => page.locator(entries).count()).toBe(2);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Скачать CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^istoriya-operaciy-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = await readFile(await download.path());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Дата;Операция;Сумма;Валюта;Статус');
    expect(lines.slice(1).map((line) => line.split(';').slice(2).join(';'))).toEqual([
      '11,00;руб.;Выполнено',
      '10,00;руб.;Выполнено',
    ]);
    expect(lines[1]).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2};/);
  });

  it('a top-up left unpaid offers «Продолжить оплату» while its page is open, and not after', async () => {
    const customer = await newCustomer(world());
    // Sent to the payment page, the customer came back without paying (the browser's Back).
    const answer = (await postJson(
      url('/paymentms/api/Payment/create'),
      { amount: 777 },
      customer.token,
    )) as { data: { paymentUrl: string } };
    const paymentUrl = answer.data.paymentUrl;

    const page = await openAs(browser, customer);
    await page.goto(url('/wallet/history'));
    const entry = page.locator(entries).filter({ hasText: '777,00' });
    await entry.getByText('Ожидает оплаты').waitFor();
    const resume = entry.getByRole('link', { name: 'Продолжить оплату' });
    expect(await resume.getAttribute('href')).toBe(paymentUrl);
    await resume.click();
    await page.waitForURL(paymentUrl);
    await page.getByRole('heading', { name: SANDBOX_HEADING }).waitFor();

    // The same history a day later, once the page has expired (T-Bank's 24 h lifetime).
    const later = await openAs(browser, customer);
    await later.clock.setFixedTime(Date.now() + 24 * 60 * 60_000 + 60_000);
    await later.goto(url('/wallet/history'));
    const expired = later.locator(entries).filter({ hasText: '777,00' });
    await expired.getByText('Не завершён').waitFor();
    expect(await expired.getByText('Ожидает оплаты').count()).toBe(0);
    expect(await expired.getByRole('link', { name: 'Продолжить оплату' }).count()).toBe(0);
  });
});

describe('a long service name in the history', () => {
  const longName =
    'Выделенный игровой сервер Minecraft Java Edition с модами, резервными копиями и защитой от DDoS-атак для большого сообщества';

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`takes at most two lines at 375 px, the full name in its title (${colorScheme})`, async () => {
      const customer = await newCustomer(world());
      await topUpThroughSandbox(world(), customer, 2000);
      await sellService(world(), customer, {
        orderId: `long-${colorScheme}-${Date.now()}`,
        service: {
          externalId: `srv-long-${colorScheme}-${Date.now()}`,
          name: longName,
          serverCount: 1,
          pricePerMonth: 100,
        },
      });
      const page = await openAs(browser, customer, { colorScheme, viewport: MOBILE_VIEWPORT });
      await page.goto(url('/wallet/history'));
      const title = page
        .locator(entries)
        .filter({ hasText: 'Покупка услуги' })
        .getByText(`Оплата услуги «${longName}»`, { exact: true });
      await title.waitFor();
      const lines = await title.evaluate((node) => {
        const style = getComputedStyle(node);
        const lineHeight =
          style.lineHeight === 'normal'
            ? Number.parseFloat(style.fontSize) * 1.2
            : Number.parseFloat(style.lineHeight);
        return Math.round(node.getBoundingClientRect().height / lineHeight);
      });
      // Two lines: more than the ellipsis of one, never the six the name would take.
      expect(lines).toBe(2);
      expect(await title.getAttribute('title')).toBe(`Оплата услуги «${longName}»`);
      const overflow = await horizontalOverflow(page);
      expect(overflow.scrollWidth, overflow.sticking.join(', ')).toBeLessThanOrEqual(
        overflow.viewport,
      );
    });
  }
});
