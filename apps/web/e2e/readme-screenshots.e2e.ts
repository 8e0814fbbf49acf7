import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import { repoRoot } from '../test/support/e2e/paths';
import {
  type Customer,
  newCustomer,
  openAs,
  sellService,
  setupWalletWorld,
  topUpThroughSandbox,
} from '../test/support/e2e/wallet-helpers';

// The README's pictures: the main screens in both themes, drawn from a customer with a top-up and
// a service. Written to docs/screenshots/ only when asked (UPDATE_SCREENSHOT=1), so an ordinary run
// leaves the tree clean; every run still draws them and checks each has its content.

const world = setupWalletWorld();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

type Screen = {
  name: string;
  path: string;
  signedIn: boolean;
  ready: (page: Page) => Promise<void>;
  /** The whole page, not only the window (the profile's security centre is long). */
  isFullPage?: boolean;
};

const SCREENS: Screen[] = [
  {
    name: 'home',
    path: '/',
    signedIn: true,
    ready: (page) => page.getByRole('button', { name: /Сервер для сообщества/ }).waitFor(),
  },
  {
    name: 'wallet-history',
    path: '/wallet/history',
    signedIn: true,
    ready: (page) => page.getByRole('region', { name: 'Сегодня' }).waitFor(),
  },
  {
    name: 'profile',
    path: '/profile',
    signedIn: true,
    isFullPage: true,
    ready: async (page) => {
      await page.getByRole('button', { name: 'Мои данные' }).waitFor();
      await expect.poll(() => page.getByTestId('devices-count').textContent()).not.toBe('…');
      await page.getByRole('heading', { name: 'Проверка безопасности' }).waitFor();
      await page.getByRole('heading', { name: 'Ключи доступа' }).waitFor();
    },
  },
  {
    name: 'security-log',
    path: '/profile/security-log',
    signedIn: true,
    ready: (page) => page.getByTestId('security-event').first().waitFor(),
  },
  {
    name: 'auth',
    path: '/auth',
    signedIn: false,
    ready: (page) => page.getByRole('tab', { name: 'Войти' }).waitFor(),
  },
];

let customer: Customer | undefined;

/** One customer for every picture: 1 500 ₽ topped up, a service bought with part of it. */
async function pictureCustomer(): Promise<Customer> {
  if (customer) return customer;
  const made = await newCustomer(world());
  await topUpThroughSandbox(world(), made, 1500);
  await sellService(world(), made, {
    orderId: `readme-${Date.now()}`,
    service: {
      externalId: `readme-srv-${Date.now()}`,
      name: 'Сервер для сообщества',
      serverCount: 2,
      pricePerMonth: 790,
    },
  });
  customer = made;
  return made;
}

describe('README screenshots', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const screen of SCREENS) {
      it(`draws ${screen.name} in the ${theme} theme for docs/screenshots/`, async () => {
        const page = screen.signedIn
          ? await openAs(browser, await pictureCustomer(), { colorScheme: theme })
          : await browser.newPage({ colorScheme: theme });
        await page.goto(url(screen.path));
        await screen.ready(page);
        // Every panel has its data: no skeletons in the picture.
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
        const file = path.join(repoRoot, 'docs/screenshots', `${screen.name}-${theme}.png`);
        if (process.env.UPDATE_SCREENSHOT) mkdirSync(path.dirname(file), { recursive: true });
        const image = await page.screenshot({
          fullPage: screen.isFullPage ?? false,
          ...(process.env.UPDATE_SCREENSHOT ? { path: file } : {}),
        });
        expect(image.byteLength).toBeGreaterThan(10_000);
      });
    }
  }
});
