import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { horizontalOverflow, seriousViolations, settled } from '../test/support/e2e/a11y-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import {
  newCustomer,
  openAs,
  setupWalletWorld,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** The FNS string: date and time as printed, the total, ФН, ФД, ФП, and 1 for income. */
const INCOME_QR = /^t=\d{8}T\d{4}&s=1234\.50&fn=\d{16}&i=\d+&fp=\d{10}&n=1$/;

async function openReceiptFromHistory(page: Page) {
  await page.goto(url('/wallet/history'));
  const link = page.getByRole('link', { name: /^Чек: пополнение/ });
  await link.waitFor();
  expect(await link.textContent()).toBe('Чек');
  await link.click();
  await page.waitForURL(/\/wallet\/receipts\/[0-9a-f-]{36}$/);
  await page.getByTestId('receipt').waitFor();
}

describe('/wallet/receipts/:id', () => {
  it.each([
    ['light', MOBILE_VIEWPORT],
    ['dark', MOBILE_VIEWPORT],
  ] as const)(
    'the history links a paid top-up to its receipt: details and the FNS QR (%s theme, 375 px)',
    async (colorScheme, viewport) => {
      const customer = await newCustomer(world());
      await topUpThroughSandbox(world(), customer, 1234.5);
      const page = await openAs(browser, customer, { colorScheme, viewport });
      await openReceiptFromHistory(page);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);

      const receipt = page.getByTestId('receipt');
      expect(await receipt.getAttribute('data-type')).toBe('income');
      const text = (await receipt.innerText()).replaceAll('\u00a0', ' ');
      expect(text).toContain('Приход · 1 234,50 ₽');
      expect(text).toMatch(/Продавец\s+GameHost/);
      expect(text).toMatch(/Дата и время\s+\d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2}/);
      expect(text).toContain('Пополнение баланса');
      expect(text).toMatch(/НДС\s+Без НДС/);
      expect(text).toMatch(/Система налогообложения\s+УСН доход/);
      expect(text).toMatch(/ФН\s+\d{16}/);
      expect(text).toMatch(/ФД\s+\d+/);
      expect(text).toMatch(/ФП\s+\d{10}/);

      const qr = page.getByRole('img', { name: /^QR-код для проверки чека: / });
      const qrText = await qr.getAttribute('data-qr-text');
      expect(qrText).toMatch(INCOME_QR);
      expect(await qr.getAttribute('alt')).toBe(`QR-код для проверки чека: ${qrText}`);
      // The image has loaded: a real PNG, drawn at its size.
      await expect
        .poll(() => qr.evaluate((image) => (image as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(50);
      const check = page.getByRole('link', { name: 'сайте ФНС' });
      expect(await check.getAttribute('href')).toBe('https://kkt-online.nalog.ru/');

      await settled(page);
      const overflow = await horizontalOverflow(page);
      expect(overflow.sticking).toEqual([]);
      expect(overflow.scrollWidth).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );

  it("another customer's receipt is not found; back leads to the history", async () => {
    const owner = await newCustomer(world());
    await topUpThroughSandbox(world(), owner, 1234.5);
    const ownerPage = await openAs(browser, owner);
    await openReceiptFromHistory(ownerPage);
    const address = ownerPage.url();

    // The browser logs the API's 404 itself; it is the answer under test.
    browser.allowConsoleErrors(/status of 404 .*\/payments\/receipts\//);
    const stranger = await newCustomer(world());
    const page = await openAs(browser, stranger, { viewport: MOBILE_VIEWPORT });
    await page.goto(address);
    await page.getByText('Чек не найден').waitFor();
    expect(await page.getByTestId('receipt').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'История' }).getAttribute('href')).toBe(
      '/wallet/history',
    );
  });
});
