import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { horizontalOverflow, seriousViolations, settled } from '../test/support/e2e/a11y-helpers';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { openSignedInPage } from '../test/support/e2e/fixtures';
import { newCustomerAndStaff, type StaffCandidate } from '../test/support/e2e/staff-helpers';
import {
  type Customer,
  setupWalletWorld,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

// The support desk's screens, as e2e/a11y-axe.e2e.ts and e2e/budgets-mobile-375.e2e.ts check the
// customer's: no serious or critical axe violation in either theme, and nothing scrolls sideways
// 375 px wide. Apart from their SCREENS: these need staff, named from the command line, which
// restarts the portal (Portal.admin), and the shared screens' world has none.

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

let customer: Customer;
let admin: StaffCandidate;
/** A member who never proves themselves: the step-up dialog stays open on their pages. */
let unproven: StaffCandidate;

beforeAll(async () => {
  ({ customer, admin, unproven } = await newCustomerAndStaff(world(), {
    admin: { role: 'admin', proven: true },
    unproven: { role: 'support', proven: false },
  }));
  // The top-up after the restart: its payment, ledger entry and letters fill the account page.
  await topUpThroughSandbox(world(), customer, 5000);
  // A row in the audit with a long reason, so that wrapping is checked too.
  await unlockOnce();
});

/** One change on the customer, so the account's and the audit's lists have a staff row. */
async function unlockOnce() {
  const response = await fetch(url(`/staffms/api/Staff/accounts/${customer.userId}/unlock`), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` },
    body: JSON.stringify({
      reason: 'Обращение 300: клиент просит снять ожидание входа после неверных паролей',
    }),
  });
  expect(response.status).toBe(200);
}

type StaffScreen = {
  name: string;
  /** Whose page: the proven admin's, or the member who never proves. */
  as: () => StaffCandidate;
  expectedConsoleErrors?: RegExp[];
  show(page: Page): Promise<void>;
};

async function goTo(page: Page, pathname: string, heading: string) {
  await page.goto(url(pathname));
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await settled(page);
}

const account = (page: Page) => goTo(page, `/staff/accounts/${customer.userId}`, customer.email);

const SCREENS: StaffScreen[] = [
  {
    name: '/staff, search with results',
    as: () => admin,
    async show(page) {
      await goTo(page, `/staff?q=${encodeURIComponent(customer.email)}`, 'Поиск клиента');
      await page.getByRole('region', { name: 'Найдено' }).waitFor();
      await settled(page);
    },
  },
  { name: '/staff/accounts/:id', as: () => admin, show: account },
  {
    name: '/staff/accounts/:id, dialog Заблокировать with the reason refused',
    as: () => admin,
    async show(page) {
      await account(page);
      await page.getByRole('button', { name: 'Заблокировать', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Заблокировать' });
      await dialog.getByRole('button', { name: 'Заблокировать', exact: true }).click();
      await dialog.getByText('Укажите причину или номер обращения').waitFor();
      await settled(page);
    },
  },
  {
    name: '/staff/accounts/:id, the proof dialog',
    as: () => unproven,
    expectedConsoleErrors: [/status of 403/],
    async show(page) {
      await page.goto(url(`/staff/accounts/${customer.userId}`));
      await page
        .getByRole('dialog', { name: 'Подтвердите, что это вы' })
        .getByLabel('Код из приложения-аутентификатора')
        .waitFor();
      await settled(page);
    },
  },
  {
    name: '/staff/audit',
    as: () => admin,
    async show(page) {
      await goTo(page, '/staff/audit', 'Журнал действий');
      await page
        .getByRole('region', { name: 'Записи журнала' })
        .locator('tbody tr')
        .first()
        .waitFor();
      await settled(page);
    },
  },
  {
    name: '/staff/money',
    as: () => admin,
    async show(page) {
      await goTo(page, '/staff/money', 'Запросы на деньги');
      await page.getByRole('region', { name: 'Ждут одобрения' }).getByRole('status').waitFor();
      await settled(page);
    },
  },
  {
    name: '/staff/roles',
    as: () => admin,
    async show(page) {
      await goTo(page, '/staff/roles', 'Сотрудники');
      await page
        .getByRole('region', { name: 'Сотрудники и их роли' })
        .locator('tbody tr')
        .first()
        .waitFor();
      await settled(page);
    },
  },
];

const cases = SCREENS.map((screen) => ({ ...screen, label: screen.name }));

describe.each(['light', 'dark'] as const)('%s theme', (colorScheme) => {
  it.each(cases)('$label has no serious or critical axe violation', async (screen) => {
    const page = await openSignedInPage(browser, screen.as().token, {
      colorScheme,
      viewport: DESKTOP_VIEWPORT,
    });
    browser.allowConsoleErrors(...(screen.expectedConsoleErrors ?? []));
    await screen.show(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('375 px', () => {
  it.each(cases)('$label fits 375 px without horizontal scroll', async (screen) => {
    const page = await openSignedInPage(browser, screen.as().token, { viewport: MOBILE_VIEWPORT });
    browser.allowConsoleErrors(...(screen.expectedConsoleErrors ?? []));
    await screen.show(page);
    const overflow = await horizontalOverflow(page);
    expect(overflow.viewport).toBe(MOBILE_VIEWPORT.width);
    expect(
      overflow.scrollWidth,
      `wider than the screen; sticking out: ${overflow.sticking.join(', ')}`,
    ).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
  });
});
