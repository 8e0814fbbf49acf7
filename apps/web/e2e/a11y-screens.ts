import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import { settled } from './a11y-helpers';
import {
  type Customer,
  newCustomer,
  sellService,
  setupWalletWorld,
  topUpThroughSandbox,
} from './wallet-helpers';

/** What a screen needs to open itself: where the portal is. */
type ScreenWorld = { baseUrl: string };

/** A long name, so that wrapping is tested too. */
const SERVICE_NAME = 'Игровой сервер Minecraft Survival с очень длинным названием';

/**
 * One portal for the test file and one customer whose screens have content: money from a sandbox
 * top-up, a service bought on the sibling site, and the history entries both leave.
 */
export function setupScreensWorld(): () => { baseUrl: string; customer: Customer } {
  const wallet = setupWalletWorld();
  let customer: Customer | undefined;
  beforeAll(async () => {
    customer = await newCustomer(wallet());
    await topUpThroughSandbox(wallet(), customer, 5000);
    await sellService(wallet(), customer, {
      orderId: 'a11y-order-1',
      service: { externalId: 'a11y-srv-1', name: SERVICE_NAME, serverCount: 2, autoRenew: true },
    });
  });
  return () => {
    if (!customer) throw new Error('setupScreensWorld(): use it inside a test');
    return { baseUrl: wallet().portal.baseUrl, customer };
  };
}

/** A screen of the portal (a page, or a page with one of its dialogs open), in the state a user sees. */
export type Screen = {
  name: string;
  isSignedIn: boolean;
  /** Only on a phone (the burger menu). */
  isMobileOnly?: boolean;
  /** Opens the screen in `page` and waits until it is still. */
  show(page: Page, world: ScreenWorld): Promise<void>;
};

let resetCounter = 0;

async function goTo(page: Page, world: ScreenWorld, pathname: string, heading: string) {
  await page.goto(`${world.baseUrl}${pathname}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await settled(page);
}

/** The home page with its wallet loaded (the top-up button is enabled once the user is). */
async function home(page: Page, world: ScreenWorld) {
  await goTo(page, world, '/', 'Главная');
  await page.getByRole('button', { name: 'Пополнить' }).and(page.locator(':enabled')).waitFor();
  await settled(page);
}

async function dialog(page: Page, opener: string, title: string) {
  await page.getByRole('button', { name: opener, exact: true }).click();
  await page.getByRole('dialog', { name: title }).waitFor();
  await settled(page);
}

/** Every screen of spec §2 and its dialogs. */
export const SCREENS: Screen[] = [
  {
    name: '/auth, tab Войти',
    isSignedIn: false,
    show: (page, world) => goTo(page, world, '/auth', 'Вход в личный кабинет'),
  },
  {
    name: '/auth, tab Регистрация',
    isSignedIn: false,
    async show(page, world) {
      await goTo(page, world, '/auth', 'Вход в личный кабинет');
      await page.getByRole('tab', { name: 'Регистрация' }).click();
      await page.getByRole('button', { name: 'Зарегистрироваться' }).waitFor();
      await settled(page);
    },
  },
  {
    name: '/reset-password, e-mail step',
    isSignedIn: false,
    show: (page, world) => goTo(page, world, '/reset-password', 'Обновление пароля'),
  },
  {
    name: '/reset-password, code step',
    isSignedIn: false,
    async show(page, world) {
      await goTo(page, world, '/reset-password', 'Обновление пароля');
      // An address without an account gets the same answer (DESIGN §3) and no countdown to wait.
      resetCounter += 1;
      await page.getByLabel('Почта').fill(`nobody.${Date.now()}.${resetCounter}@example.com`);
      await page.getByRole('button', { name: 'Продолжить' }).click();
      await page.getByLabel('Введите код').waitFor();
      await settled(page);
    },
  },
  { name: '/ (home)', isSignedIn: true, show: home },
  {
    name: '/, top-up dialog',
    isSignedIn: true,
    async show(page, world) {
      await home(page, world);
      await dialog(page, 'Пополнить', 'Пополнение баланса');
    },
  },
  {
    name: '/, service details dialog',
    isSignedIn: true,
    async show(page, world) {
      await home(page, world);
      await page.getByRole('button', { name: new RegExp(SERVICE_NAME) }).click();
      await page.getByRole('dialog', { name: SERVICE_NAME }).waitFor();
      await settled(page);
    },
  },
  {
    name: '/, cashback dialog',
    isSignedIn: true,
    async show(page, world) {
      await home(page, world);
      await dialog(page, 'Что такое баллы кэшбэка', 'Баллы кэшбэка');
    },
  },
  {
    name: '/, overdraft dialog',
    isSignedIn: true,
    async show(page, world) {
      await home(page, world);
      await dialog(page, 'Что такое овердрафт', 'Овердрафт');
    },
  },
  {
    name: '/profile',
    isSignedIn: true,
    show: (page, world) => goTo(page, world, '/profile', 'Личные данные'),
  },
  {
    name: '/profile, dialog Мои данные',
    isSignedIn: true,
    async show(page, world) {
      await goTo(page, world, '/profile', 'Личные данные');
      await dialog(page, 'Мои данные', 'Мои данные');
    },
  },
  {
    name: '/profile/devices',
    isSignedIn: true,
    async show(page, world) {
      await goTo(page, world, '/profile/devices', 'Привязанные устройства');
      await page.getByTestId('device-row').first().waitFor();
      await settled(page);
    },
  },
  {
    name: '/profile/devices, dialog Точно выйти?',
    isSignedIn: true,
    async show(page, world) {
      await goTo(page, world, '/profile/devices', 'Привязанные устройства');
      await page
        .getByRole('button', { name: /^Выйти: / })
        .first()
        .click();
      await page.getByRole('dialog', { name: 'Точно выйти?' }).waitFor();
      await settled(page);
    },
  },
  {
    name: '/wallet/history',
    isSignedIn: true,
    show: (page, world) => goTo(page, world, '/wallet/history', 'История начислений и списаний'),
  },
  {
    name: '404 page',
    isSignedIn: false,
    show: (page, world) =>
      goTo(page, world, '/no/such/page', 'Упс! Кажется, вы попали на несуществующую страницу'),
  },
  {
    name: '/, mobile menu',
    isSignedIn: true,
    isMobileOnly: true,
    async show(page, world) {
      await home(page, world);
      await page.getByRole('button', { name: 'Открыть меню' }).click();
      await page.getByRole('button', { name: 'Светлая' }).waitFor();
      await settled(page);
    },
  },
];
