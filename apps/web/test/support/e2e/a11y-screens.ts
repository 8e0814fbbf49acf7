import type { Page } from 'playwright-core';
import { beforeAll } from 'vitest';
import { codeIn } from '../../../../server/test/support/smtp-server';
import { settled } from './a11y-helpers';
import {
  enableAuthenticator,
  fillRegistration,
  newAccount,
  registrationCode,
  totpCode,
} from './auth-helpers';
import {
  type Customer,
  newCustomer,
  sellService,
  setupWalletWorld,
  topUpThroughSandbox,
  type WalletWorld,
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
  // The fixture's registrations come through this "proxy" as clients of their own (see freshCustomer).
  const wallet = setupWalletWorld({ TRUSTED_PROXIES: '127.0.0.1' });
  walletWorld = wallet;
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
  /** Opened as the shared customer. (Screens with an account of their own sign it in themselves.) */
  isSignedIn: boolean;
  /** Only on a phone (the burger menu). */
  isMobileOnly?: boolean;
  /** Errors the browser logs on the way there, on purpose (a refusal the screen answers). */
  expectedConsoleErrors?: RegExp[];
  /** Opens the screen in `page` and waits until it is still. */
  show(page: Page, world: ScreenWorld): Promise<void>;
};

let resetCounter = 0;

/** The test file's portal and mailbox, for screens that need an account of their own. */
let walletWorld: (() => WalletWorld) | undefined;

function mailbox(): WalletWorld {
  if (!walletWorld) throw new Error('SCREENS need setupScreensWorld() in the test file');
  return walletWorld();
}

let clientCounter = 0;

async function postAs(client: string, pathname: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${mailbox().portal.baseUrl}${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify(body),
  });
  const data: unknown = await response.json();
  if (!response.ok)
    throw new Error(`${pathname} answered ${response.status}: ${JSON.stringify(data)}`);
  return data;
}

/**
 * A new confirmed account, registered through the API like newCustomer() but as a client of its
 * own: the portal takes 20 registrations an hour from one address, and the screens of a test file
 * need more accounts than that.
 */
async function freshCustomer(): Promise<Customer> {
  clientCounter += 1;
  // TEST-NET-1 (RFC 5737): only a header value, no traffic goes there.
  const client = `192.0.2.${clientCounter}`;
  const account = newAccount();
  const [firstName = '', lastName = ''] = account.name.split(' ');
  await postAs(client, '/authms/api/Auth/register', {
    email: account.email,
    password: account.password,
    username: account.username,
    firstName,
    lastName,
  });
  const code = await registrationCode(mailbox().smtp, account.email);
  const answer = (await postAs(client, '/authms/api/Auth/verify-registration', {
    email: account.email,
    code,
  })) as { token: string; userId: string };
  return { ...account, token: answer.token, userId: answer.userId };
}

/**
 * A fresh account (see freshCustomer) whose token `page` holds before the app's first script
 * runs. Screens whose `show` changes the account (a code sent, the authenticator switched on, a
 * new address or password) use one of these, so the shared customer stays as the other screens
 * expect it.
 */
async function signInFresh(page: Page): Promise<Customer> {
  const customer = await freshCustomer();
  await page.addInitScript((token) => {
    try {
      localStorage.setItem('access_token', token);
    } catch {
      // about:blank has no storage.
    }
  }, customer.token);
  return customer;
}

/** The six-digit code of the next letter to `email`. */
async function mailedCode(email: string): Promise<string> {
  return codeIn((await mailbox().smtp.waitForLetter(email)).text);
}

let addressCounter = 0;

/** A long address (wrapping is tested too) that no other screen uses. */
function longAddress(): string {
  addressCounter += 1;
  return `a.rather.long.address.for.wrapping.${Date.now().toString(36)}${addressCounter}@example.org`;
}

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

/** A dialog opened by its button (`opener`) on the screen `on` shows. */
function dialogScreen(
  name: string,
  on: Screen['show'],
  opener: string,
  title: string,
  isSignedIn = true,
): Screen {
  return {
    name,
    isSignedIn,
    async show(page, world) {
      await on(page, world);
      await dialog(page, opener, title);
    },
  };
}

const profile = (page: Page, world: ScreenWorld) => goTo(page, world, '/profile', 'Личные данные');

type EmailChangeStep = 'Код с текущей почты' | 'Новая почта' | 'Код с новой почты' | 'done';

/** The e-mail change dialog of a fresh account, walked to `step` ('done': 'Почта обновлена'). */
async function emailChange(page: Page, world: ScreenWorld, step: EmailChangeStep) {
  const customer = await signInFresh(page);
  await goTo(page, world, '/profile', 'Личные данные');
  await dialog(page, 'Изменить', 'Смена почты');
  await page.getByRole('button', { name: 'Отправить код' }).click();
  await page.getByRole('dialog', { name: 'Код с текущей почты' }).waitFor();
  if (step !== 'Код с текущей почты') {
    await page.getByLabel('Код подтверждения').fill(await mailedCode(customer.email));
    await page.getByRole('dialog', { name: 'Новая почта' }).waitFor();
  }
  if (step === 'Код с новой почты' || step === 'done') {
    const newEmail = longAddress();
    await page.getByRole('textbox', { name: 'Новая почта' }).fill(newEmail);
    await page.getByRole('button', { name: 'Получить код' }).click();
    await page.getByRole('dialog', { name: 'Код с новой почты' }).waitFor();
    if (step === 'done') {
      await page.getByLabel('Код подтверждения').fill(await mailedCode(newEmail));
      await page.getByRole('dialog').getByText('Почта обновлена').waitFor();
    }
  }
  await settled(page);
}

type PasswordChangeStep = 'Подтверждение' | 'Смена пароля' | 'errors';

/** The password change dialog of a fresh account, walked to `step` ('errors': an empty form sent). */
async function passwordChange(page: Page, world: ScreenWorld, step: PasswordChangeStep) {
  const customer = await signInFresh(page);
  await goTo(page, world, '/profile', 'Личные данные');
  await dialog(page, 'Сменить пароль', 'Вы уверены, что хотите сменить пароль?');
  await page.getByRole('button', { name: 'Да', exact: true }).click();
  await page.getByRole('dialog', { name: 'Подтверждение' }).getByLabel('Код из письма').waitFor();
  if (step !== 'Подтверждение') {
    await page.getByLabel('Код из письма').fill(await mailedCode(customer.email));
    await page.getByRole('dialog', { name: 'Смена пароля' }).getByLabel('Текущий пароль').waitFor();
  }
  if (step === 'errors') {
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Введите текущий пароль').waitFor();
  }
  await settled(page);
}

/**
 * /profile of a fresh account with the authenticator's connect dialog open on its first step: the
 * server wants the owner proved before it hands out a key (its 403 is logged by the browser).
 */
async function connectProofStep(page: Page, world: ScreenWorld): Promise<Customer> {
  const customer = await signInFresh(page);
  await goTo(page, world, '/profile', 'Личные данные');
  const setting = page.getByTestId('two-factor');
  await setting.getByText('Не подключено').waitFor();
  await setting.getByRole('button', { name: 'Подключить' }).click();
  await page
    .getByRole('dialog', { name: 'Подключение Google Authenticator' })
    .getByLabel('Текущий пароль')
    .waitFor();
  return customer;
}

/** The connect dialog past its proof step, with the QR code; answers its key. */
async function connectDialog(page: Page, world: ScreenWorld): Promise<string> {
  const customer = await connectProofStep(page, world);
  await page.getByLabel('Текущий пароль').fill(customer.password);
  await page.getByRole('button', { name: 'Продолжить' }).click();
  const key = await page.getByTestId('two-factor-secret').textContent();
  return (key ?? '').replaceAll(' ', '');
}

/** /profile of a fresh account whose authenticator is on. */
async function withAuthenticator(page: Page, world: ScreenWorld) {
  const customer = await signInFresh(page);
  await enableAuthenticator(world.baseUrl, customer);
  await goTo(page, world, '/profile', 'Личные данные');
  await page.getByText('Резервных кодов осталось: 10').waitFor();
}

/** Every screen of the portal and its dialogs. */
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
    name: '/auth, registration code',
    isSignedIn: false,
    async show(page, world) {
      await goTo(page, world, '/auth', 'Вход в личный кабинет');
      await fillRegistration(page, { ...newAccount(), email: longAddress() });
      await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
      await page.getByRole('heading', { level: 1, name: 'Подтверждение почты' }).waitFor();
      await page.getByLabel('Код из письма').waitFor();
      await settled(page);
    },
  },
  {
    name: '/auth, two-factor code',
    isSignedIn: false,
    async show(page, world) {
      const customer = await freshCustomer();
      await enableAuthenticator(world.baseUrl, customer);
      await goTo(page, world, '/auth', 'Вход в личный кабинет');
      await page.getByLabel('Логин или почта').fill(customer.email);
      await page.getByLabel('Пароль', { exact: true }).fill(customer.password);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await page.getByLabel('Код подтверждения').waitFor();
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
      // An address without an account gets the same answer and no countdown to wait.
      resetCounter += 1;
      await page.getByLabel('Почта').fill(`nobody.${Date.now()}.${resetCounter}@example.com`);
      await page.getByRole('button', { name: 'Продолжить' }).click();
      await page.getByLabel('Введите код').waitFor();
      await settled(page);
    },
  },
  {
    name: '/reset-password, done step',
    isSignedIn: false,
    async show(page, world) {
      // A real reset (signing out everywhere) needs an account of its own and the mailed code.
      const customer = await freshCustomer();
      await goTo(page, world, '/reset-password', 'Обновление пароля');
      await page.getByLabel('Почта').fill(customer.email);
      await page.getByRole('button', { name: 'Продолжить' }).click();
      await page.getByLabel('Введите код').fill(await mailedCode(customer.email));
      await page.getByLabel('Новый пароль').fill('Marble-Falcon72');
      await page.getByLabel('Повторите пароль').fill('Marble-Falcon72');
      await page.getByRole('button', { name: 'Обновить пароль' }).click();
      await page.getByRole('heading', { level: 1, name: 'Пароль обновлен' }).waitFor();
      await settled(page);
    },
  },
  { name: '/ (home)', isSignedIn: true, show: home },
  dialogScreen('/, top-up dialog', home, 'Пополнить', 'Пополнение баланса'),
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
  dialogScreen('/, cashback dialog', home, 'Что такое баллы кэшбэка', 'Баллы кэшбэка'),
  dialogScreen('/, overdraft dialog', home, 'Что такое овердрафт', 'Овердрафт'),
  {
    name: '/profile',
    isSignedIn: true,
    show: profile,
  },
  dialogScreen('/profile, dialog Мои данные', profile, 'Мои данные', 'Мои данные'),
  // Only open: nothing is sent until 'Отправить код', so the shared customer will do.
  dialogScreen('/profile, e-mail change: Смена почты', profile, 'Изменить', 'Смена почты'),
  ...(
    [
      ['Код с текущей почты', 'Код с текущей почты'],
      ['Новая почта', 'Новая почта'],
      ['Код с новой почты', 'Код с новой почты'],
      ['done', 'Почта обновлена'],
    ] as const
  ).map(
    ([step, label]): Screen => ({
      name: `/profile, e-mail change: ${label}`,
      isSignedIn: false,
      show: (page, world) => emailChange(page, world, step),
    }),
  ),
  // The question only: no code is mailed before 'Да'.
  dialogScreen(
    '/profile, password change: Вы уверены?',
    profile,
    'Сменить пароль',
    'Вы уверены, что хотите сменить пароль?',
  ),
  ...(
    [
      ['Подтверждение', 'code'],
      ['Смена пароля', 'form'],
      ['errors', 'form with errors'],
    ] as const
  ).map(
    ([step, label]): Screen => ({
      name: `/profile, password change: ${label}`,
      isSignedIn: false,
      show: (page, world) => passwordChange(page, world, step),
    }),
  ),
  {
    name: '/profile, proof step of Подключение Google Authenticator',
    isSignedIn: false,
    expectedConsoleErrors: [/status of 403/],
    async show(page, world) {
      await connectProofStep(page, world);
      await settled(page);
    },
  },
  {
    name: '/profile, dialog Подключение Google Authenticator',
    isSignedIn: false,
    expectedConsoleErrors: [/status of 403/],
    async show(page, world) {
      await connectDialog(page, world);
      await page.getByRole('img', { name: 'QR-код для приложения-аутентификатора' }).waitFor();
      await settled(page);
    },
  },
  {
    name: '/profile, dialog Резервные коды',
    isSignedIn: false,
    expectedConsoleErrors: [/status of 403/],
    async show(page, world) {
      const key = await connectDialog(page, world);
      await page.getByLabel('Код из приложения').fill(totpCode(key));
      await page
        .getByRole('dialog', { name: 'Подключение Google Authenticator' })
        .getByRole('button', { name: 'Подключить' })
        .click();
      await page
        .getByRole('dialog', { name: 'Резервные коды' })
        .getByRole('listitem')
        .nth(9)
        .waitFor();
      await settled(page);
    },
  },
  dialogScreen(
    '/profile, dialog Отключить Google Authenticator?',
    withAuthenticator,
    'Отключить',
    'Отключить Google Authenticator?',
    false,
  ),
  dialogScreen(
    '/profile, dialog Новые резервные коды',
    withAuthenticator,
    'Новые резервные коды',
    'Новые резервные коды',
    false,
  ),
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
    name: '/profile/security-log',
    isSignedIn: true,
    async show(page, world) {
      await goTo(page, world, '/profile/security-log', 'Журнал безопасности');
      await page.getByTestId('security-event').first().waitFor();
      await settled(page);
    },
  },
  {
    name: '/wallet/history',
    isSignedIn: true,
    show: (page, world) => goTo(page, world, '/wallet/history', 'История начислений и списаний'),
  },
  {
    name: '/wallet/receipts/:id',
    isSignedIn: true,
    async show(page, world) {
      await goTo(page, world, '/wallet/history', 'История начислений и списаний');
      await page
        .getByRole('link', { name: /^Чек: / })
        .first()
        .click();
      await page.getByRole('heading', { level: 1, name: 'Кассовый чек' }).waitFor();
      await page.getByTestId('receipt').waitFor();
      await settled(page);
    },
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
