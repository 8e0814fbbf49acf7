import {
  AMOUNT_NOT_POSITIVE,
  AMOUNT_REQUIRED,
  AMOUNT_TOO_PRECISE,
  SANDBOX_PAY_NOTE,
  SANDBOX_TEST_PAYMENT,
  TOP_UP_NOT_CONFIGURED,
} from '@portal/contracts/messages';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  TOP_UP_SBP_TOO_SMALL,
  TOP_UP_TOO_LARGE,
  TOP_UP_TOO_SMALL,
} from '../../server/src/modules/payments/messages';
import { horizontalOverflow } from '../test/support/e2e/a11y-helpers';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import {
  newCustomer,
  openAs,
  plain,
  setupWalletWorld,
  tileValue,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;
const POLL = { timeout: 15_000, interval: 100 };

async function openHome(page: Page) {
  await page.goto(url('/'));
  await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
  await expect.poll(() => tileValue(page, 'balance'), POLL).toMatch(/₽$/);
}

async function openTopUp(page: Page) {
  await page.getByRole('button', { name: 'Пополнить' }).click();
  const dialog = page.getByRole('dialog', { name: 'Пополнение баланса' });
  await dialog.waitFor();
  return dialog;
}

/** The payment request the page sends, as the server received it. */
function capturePaymentRequest(page: Page, path: string) {
  return new Promise<Request>((resolve) => {
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === path) resolve(request);
    });
  });
}

/** Tops up 1 500 ₽ by card from the home page, up to the sandbox checkout. */
async function openCardCheckout(page: Page) {
  const dialog = await openTopUp(page);
  await dialog.getByRole('button', { name: '1 500', exact: true }).click();
  await dialog.getByRole('button', { name: /Банковская карта/ }).click();
  await page.waitForURL((address) => address.pathname.startsWith('/sandbox/tbank/pay/'));
}

async function historyAmounts(page: Page) {
  return (await page.locator('li[data-status]').allInnerTexts()).map(plain);
}

describe('top-up through the sandbox checkout', () => {
  it('tops up 1000 ₽ by card: checkout, back home with the new balance, and the history entry', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    expect(await tileValue(page, 'balance')).toBe('0,00 ₽');

    const dialog = await openTopUp(page);
    const amount = dialog.getByLabel('Сумма пополнения');
    expect(await amount.inputValue()).toBe('500');
    await dialog.getByRole('button', { name: '1 000', exact: true }).click();
    expect(await amount.inputValue()).toBe('1000');
    expect(
      await dialog.getByRole('button', { name: '1 000', exact: true }).getAttribute('aria-pressed'),
    ).toBe('true');

    const sent = capturePaymentRequest(page, '/paymentms/api/Payment/create');
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    const body = (await sent).postDataJSON();
    // The amount as a number and the receipt of a top-up.
    expect(body).toMatchObject({
      userId: customer.userId,
      amount: 1000,
      description: 'Пополнение баланса',
      email: customer.email,
      isRecurrent: false,
      receipt: {
        email: customer.email,
        taxation: 'osn',
        items: [
          { name: 'Пополнение баланса', price: 1000, quantity: 1, amount: 1000, tax: 'none' },
        ],
      },
    });
    expect((await sent).headers()['idempotency-key']).toBeTruthy();

    await page.waitForURL((address) => address.pathname.startsWith('/sandbox/tbank/pay/'));
    // Nobody may take the sandbox for a bank: its title and the page say it is a test payment.
    expect(await page.title()).toBe(SANDBOX_TEST_PAYMENT);
    expect(await page.getByTestId('sandbox-test-label').textContent()).toBe(SANDBOX_TEST_PAYMENT);
    expect(await page.getByText(SANDBOX_PAY_NOTE).isVisible()).toBe(true);
    expect(plain((await page.getByTestId('sandbox-amount').textContent()) ?? '')).toBe(
      '1 000,00 ₽',
    );
    expect(await page.getByText('Оплата банковской картой').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Оплатить' }).click();

    await page.waitForURL((address) => address.pathname === '/');
    await waitForToast(page, 'Платёж принят');
    await expect.poll(() => tileValue(page, 'balance'), POLL).toBe('1 000,00 ₽');
    // The return marker is dropped, so a reload does not repeat the message.
    expect(new URL(page.url()).search).toBe('');

    await page.getByRole('link', { name: 'История операций' }).click();
    await page.getByRole('heading', { level: 1, name: 'История начислений и списаний' }).waitFor();
    const today = page.getByRole('region', { name: 'Сегодня' });
    await today.waitFor();
    const entries = await historyAmounts(page);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain('+1 000,00 ₽');
    expect(entries[0]).toContain('Пополнение');
    await page.getByRole('img', { name: /График баланса: от 0,00 ₽ до 1 000,00 ₽/ }).waitFor();
  });

  it('tops up by SBP: the SBP address leads to the checkout, paying credits the balance', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);

    const dialog = await openTopUp(page);
    await dialog.getByLabel('Сумма пополнения').fill('750');
    const sent = capturePaymentRequest(page, '/paymentms/api/Payment/sbp/qr');
    await dialog.getByRole('button', { name: /СБП/ }).click();
    expect((await sent).postDataJSON()).toMatchObject({ amount: 750 });

    await page.waitForURL((address) => address.searchParams.get('via') === 'sbp');
    expect(await page.getByText('Оплата через СБП').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Оплатить' }).click();

    await page.waitForURL((address) => address.pathname === '/');
    await expect.poll(() => tileValue(page, 'balance'), POLL).toBe('750,00 ₽');
    await page.goto(url('/wallet/history'));
    await page.getByRole('region', { name: 'Сегодня' }).waitFor();
    const entries = await historyAmounts(page);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain('+750,00 ₽');
  });

  it('the checkout page fits a 375 px phone', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer, { viewport: MOBILE_VIEWPORT });
    await openHome(page);
    await openCardCheckout(page);
    await page.getByRole('button', { name: 'Отменить' }).waitFor();
    const overflow = await horizontalOverflow(page);
    expect(
      overflow.scrollWidth,
      `sticking out: ${overflow.sticking.join(', ')}`,
    ).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
  });

  it('a cancelled checkout returns home with the balance unchanged', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);

    await openCardCheckout(page);
    await page.getByRole('button', { name: 'Отменить' }).click();

    await page.waitForURL((address) => address.pathname === '/');
    await waitForToast(page, 'Оплата не завершена. Баланс не изменился');
    expect(await tileValue(page, 'balance')).toBe('0,00 ₽');

    await page.goto(url('/wallet/history'));
    await page.getByRole('region', { name: 'Сегодня' }).waitFor();
    const entries = await historyAmounts(page);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toContain('Отменено');
    expect(await page.locator('li[data-status="canceled"]').count()).toBe(1);
    // Nothing was credited, so nothing to chart.
    await page.getByText('Здесь появится график, когда будут операции').waitFor();
  });
});

describe('a public portal without a payment terminal', () => {
  // No T-Bank settings and a PUBLIC_URL that is not this machine: the sandbox must not appear.
  const publicWorld = setupWalletWorld({
    PAYMENT_PROVIDER: 'auto',
    PUBLIC_URL: 'https://lk.example.com',
  });

  it('says top-ups are off and stays on the page', async () => {
    const customer = await newCustomer(publicWorld());
    const page = await openAs(browser, customer);
    browser.allowConsoleErrors('Failed to load resource');
    await page.goto(`${publicWorld().portal.baseUrl}/`);
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    const dialog = await openTopUp(page);
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await waitForToast(page, TOP_UP_NOT_CONFIGURED);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await dialog.getByRole('button', { name: /Банковская карта/ }).isEnabled()).toBe(true);
  });
});

describe('back from the checkout before the bank confirmed', () => {
  it('shows the credit when the notification lands later, without a reload', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await page.goto(url('/?topup=success'));
    await waitForToast(page, 'Платёж принят');
    await expect.poll(() => tileValue(page, 'balance'), POLL).toBe('0,00 ₽');
    let navigations = 0;
    page.on('framenavigated', () => {
      navigations += 1;
    });
    // The bank's notification arrives while the customer looks at the home page.
    await topUpThroughSandbox(world(), customer, 300);
    await expect.poll(() => tileValue(page, 'balance'), POLL).toBe('300,00 ₽');
    expect(navigations).toBe(0);
  });
});

describe('the top-up modal', () => {
  it('is at most 500 px wide, locks page scroll and closes on Escape, backdrop and its button', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer, { viewport: { width: 1280, height: 600 } });
    await openHome(page);
    const bodyOverflow = () => page.evaluate(() => getComputedStyle(document.body).overflow);
    expect(await bodyOverflow()).not.toBe('hidden');

    let dialog = await openTopUp(page);
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(500);
    await expect.poll(bodyOverflow).toBe('hidden');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The scroll lock is let go in an effect's clean-up, which may run a frame after the dialog left.
    await expect.poll(bodyOverflow).not.toBe('hidden');

    dialog = await openTopUp(page);
    // A click on the dimmed backdrop, well away from the dialog.
    await page.mouse.click(20, 580);
    await dialog.waitFor({ state: 'detached' });

    dialog = await openTopUp(page);
    await dialog.getByRole('button', { name: 'Закрыть' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(bodyOverflow).not.toBe('hidden');
  });

  it('dims and disables the method list while the payment is being created', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    // Hold the request until the dimmed state has been seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/paymentms/api/Payment/create', async (route) => {
      await held;
      await route.continue();
    });
    const dialog = await openTopUp(page);
    const methods = dialog.getByRole('list', { name: 'Способы оплаты' });
    expect(await methods.getAttribute('data-busy')).toBeNull();
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await dialog.locator('ul[data-busy="true"]').waitFor();
    expect(await methods.evaluate((node) => getComputedStyle(node).opacity)).toBe('0.5');
    expect(await dialog.getByRole('button', { name: /СБП/ }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: /Банковская карта/ }).isDisabled()).toBe(true);
    release();
    await page.waitForURL((address) => address.pathname.startsWith('/sandbox/tbank/pay/'));
  });

  it('says why a payment did not start: the amount, the server message, or a fallback text', async () => {
    const customer = await newCustomer(world());
    const page = await openAs(browser, customer);
    await openHome(page);
    browser.allowConsoleErrors('Failed to load resource');
    const dialog = await openTopUp(page);
    const amount = dialog.getByLabel('Сумма пополнения');

    // No amount at all: the form says so and nothing is sent.
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().includes('/paymentms/')) requests += 1;
    });
    await amount.fill('');
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await dialog.getByRole('alert').getByText('Введите сумму').waitFor();
    expect(requests).toBe(0);

    // The server refuses the amount (the SBP minimum is 10 ₽, a server rule): under the field.
    await amount.fill('5');
    await dialog.getByRole('button', { name: /СБП/ }).click();
    await dialog
      .getByRole('alert')
      .getByText('Минимальная сумма пополнения через СБП — 10 ₽')
      .waitFor();
    expect(await dialog.getByRole('button', { name: /СБП/ }).isEnabled()).toBe(true);

    // An answer with status not ok: its message.
    await page.route('**/paymentms/api/Payment/create', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', data: null, message: 'Банк отклонил платёж' }),
      }),
    );
    await amount.fill('500');
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await waitForToast(page, 'Банк отклонил платёж');

    // A request error without a message: a gateway's page instead of the portal's answer.
    await page.unroute('**/paymentms/api/Payment/create');
    await page.route('**/paymentms/api/Payment/create', (route) =>
      route.fulfill({ status: 502, contentType: 'text/html', body: '<html>Bad gateway</html>' }),
    );
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await waitForToast(page, 'Ошибка при отправке запроса.');

    // No answer at all: the connection, not the bank, is named.
    await page.unroute('**/paymentms/api/Payment/create');
    await page.route('**/paymentms/api/Payment/create', (route) => route.abort('failed'));
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await waitForToast(page, 'Нет соединения с сервером. Проверьте интернет и повторите.');

    // Not a request error at all: an answer the page cannot use.
    await page.unroute('**/paymentms/api/Payment/create');
    await page.route('**/paymentms/api/Payment/create', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'ok', message: 'без адреса' }),
      }),
    );
    await dialog.getByRole('button', { name: /Банковская карта/ }).click();
    await waitForToast(page, 'Что-то пошло не так.');
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

describe('amount errors', () => {
  // Every refusal of the amount, by the form's rule or the server's limits, in one place and words.
  const cases: { typed: string; method: RegExp; text: string }[] = [
    { typed: '', method: /Банковская карта/, text: AMOUNT_REQUIRED },
    { typed: '0', method: /Банковская карта/, text: AMOUNT_NOT_POSITIVE },
    { typed: '-5', method: /Банковская карта/, text: AMOUNT_NOT_POSITIVE },
    { typed: '10.555', method: /Банковская карта/, text: AMOUNT_TOO_PRECISE },
    { typed: '5', method: /Банковская карта/, text: TOP_UP_TOO_SMALL(10) },
    { typed: '5', method: /СБП/, text: TOP_UP_SBP_TOO_SMALL(10) },
    { typed: '100001', method: /Банковская карта/, text: TOP_UP_TOO_LARGE(100_000) },
  ];

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`shows every amount error under the field, never as a toast (375 px, ${colorScheme})`, async () => {
      const customer = await newCustomer(world());
      const page = await openAs(browser, customer, { colorScheme, viewport: MOBILE_VIEWPORT });
      browser.allowConsoleErrors('400 (Bad Request)');
      await openHome(page);
      const dialog = await openTopUp(page);
      const amount = dialog.getByLabel('Сумма пополнения');
      for (const { typed, method, text } of cases) {
        await amount.fill(typed);
        await dialog.getByRole('button', { name: method }).click();
        const error = dialog.locator('#top-up-amount-error');
        await expect
          .poll(() => error.textContent({ timeout: 200 }).catch(() => null), POLL)
          .toBe(text);
        expect(await amount.getAttribute('aria-describedby')).toBe('top-up-amount-error');
        // Right under the field, inside the dialog.
        const [field, below] = await Promise.all([amount.boundingBox(), error.boundingBox()]);
        expect(below?.y ?? 0).toBeGreaterThan((field?.y ?? 0) + (field?.height ?? 0) - 1);
        expect(below?.y ?? 0).toBeLessThan((field?.y ?? 0) + (field?.height ?? 0) + 40);
        expect(await page.locator('[data-sonner-toast]').count(), `toast for «${typed}»`).toBe(0);
        expect(new URL(page.url()).pathname).toBe('/');
      }
      // Typing a good amount clears the error, and the payment starts.
      await amount.fill('500');
      await dialog.locator('#top-up-amount-error').waitFor({ state: 'detached' });
    });
  }
});
