import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { settled, tabTo } from '../test/support/e2e/a11y-helpers';
import { enableAuthenticator, totpCode } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithAccount,
} from '../test/support/e2e/fixtures';

// The portal works with the keyboard alone; dialogs keep the focus inside and give it
// back to what opened them.

const world = setupPortalWithAccount();
const browser = setupBrowser();

/** The focused element, described well enough to tell two apart. */
function focusedElement(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40);
    return `${element.tagName.toLowerCase()}[${element.getAttribute('type') ?? ''}] ${name ?? ''} ${element.getAttribute('name') ?? ''}`;
  });
}

const hasFocusInside = (dialog: Locator) =>
  dialog.evaluate((element) => element.contains(document.activeElement));

it('signs in with the keyboard only', async () => {
  const { portal, account } = world();
  const page = await browser.newPage();
  await page.goto(`${portal.baseUrl}/auth`);
  await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();

  await tabTo(page, page.getByLabel('Логин или почта'));
  await page.keyboard.type(account.email);
  await tabTo(page, page.getByLabel('Пароль', { exact: true }));
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');

  await page.waitForURL((address) => address.pathname === '/');
  await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeTruthy();
});

/** The six-digit code of the next letter to `email`. */
async function mailedCode(email: string): Promise<string> {
  return codeIn((await world().smtp.waitForLetter(email)).text);
}

/** Types into the focused field what a person reads from the screen or a letter. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

type DialogExample = {
  path: string;
  heading: string;
  opener: string;
  /** The test id of the block the opener is in, when its name is not unique on the page. */
  openerIn?: string;
  dialog: string;
  /**
   * A fresh account of its own, made ready by `prepare`: the way to the dialog changes the
   * account (a code sent, the authenticator switched on), and the shared one must stay as it is.
   */
  prepare?: (account: SignedInAccount) => Promise<{ recoveryCode?: string }>;
  /** The button the focus goes back to, when the opener is gone by then. */
  returnsTo?: string;
  /** From the dialog the opener opened to `dialog`, with the keyboard only. */
  reach?: (page: Page, account: SignedInAccount & { recoveryCode?: string }) => Promise<void>;
};

/**
 * The connect dialog opens on the proof step (the server refused the key with a 403, which the
 * browser logs); the password, typed, brings the QR code.
 */
async function proveByPassword(page: Page, account: SignedInAccount) {
  browser.allowConsoleErrors(/status of 403/);
  await typeInto(page, page.getByLabel('Текущий пароль'), account.password);
  await page.keyboard.press('Enter');
  await page.getByTestId('two-factor-secret').waitFor();
}

const DIALOGS: DialogExample[] = [
  { path: '/', heading: 'Главная', opener: 'Пополнить', dialog: 'Пополнение баланса' },
  {
    path: '/',
    heading: 'Главная',
    opener: 'Что такое баллы кэшбэка',
    dialog: 'Баллы кэшбэка',
  },
  { path: '/', heading: 'Главная', opener: 'Что такое овердрафт', dialog: 'Овердрафт' },
  { path: '/profile', heading: 'Личные данные', opener: 'Мои данные', dialog: 'Мои данные' },
  { path: '/profile', heading: 'Личные данные', opener: 'Изменить', dialog: 'Смена почты' },
  {
    path: '/profile',
    heading: 'Личные данные',
    opener: 'Изменить',
    dialog: 'Новая почта',
    prepare: async () => ({}),
    async reach(page, account) {
      await tabTo(page, page.getByRole('button', { name: 'Отправить код' }));
      await page.keyboard.press('Enter');
      const code = page.getByRole('dialog', { name: 'Код с текущей почты' });
      await code.waitFor();
      await page.keyboard.type(await mailedCode(account.email));
    },
  },
  {
    path: '/profile',
    heading: 'Личные данные',
    opener: 'Сменить пароль',
    dialog: 'Вы уверены, что хотите сменить пароль?',
  },
  {
    path: '/profile',
    heading: 'Личные данные',
    opener: 'Сменить пароль',
    dialog: 'Смена пароля',
    prepare: async () => ({}),
    async reach(page, account) {
      await tabTo(page, page.getByRole('button', { name: 'Да', exact: true }));
      await page.keyboard.press('Enter');
      const code = page.getByRole('dialog', { name: 'Подтверждение' }).getByLabel('Код из письма');
      await code.waitFor();
      await typeInto(page, code, await mailedCode(account.email));
    },
  },
  {
    path: '/profile',
    heading: 'Личные данные',
    opener: 'Подключить',
    openerIn: 'two-factor',
    dialog: 'Подключение Google Authenticator',
    prepare: async () => ({}),
    reach: proveByPassword,
  },
  {
    path: '/profile',
    heading: 'Личные данные',
    opener: 'Подключить',
    openerIn: 'two-factor',
    dialog: 'Резервные коды',
    prepare: async () => ({}),
    // Connected: the line's buttons are now these.
    returnsTo: 'Новые резервные коды',
    async reach(page, account) {
      await proveByPassword(page, account);
      // What a person types by hand when the QR code cannot be scanned.
      const key = await page.getByTestId('two-factor-secret').textContent();
      await typeInto(
        page,
        page.getByLabel('Код из приложения'),
        totpCode(key?.replaceAll(' ', '') ?? ''),
      );
      await page.keyboard.press('Enter');
    },
  },
  {
    path: '/profile',
    heading: 'Личные данные',
    opener: 'Новые резервные коды',
    dialog: 'Резервные коды',
    async prepare(account) {
      const { recoveryCodes } = await enableAuthenticator(world().portal.baseUrl, account);
      return { recoveryCode: recoveryCodes[0] };
    },
    async reach(page, account) {
      await page.getByRole('dialog', { name: 'Новые резервные коды' }).waitFor();
      await typeInto(page, page.getByLabel('Код подтверждения'), account.recoveryCode ?? '');
      await page.keyboard.press('Enter');
    },
  },
];

describe('dialogs opened from the keyboard', () => {
  it.each(
    DIALOGS.map((example) => ({ ...example, label: `${example.dialog} (${example.opener})` })),
  )('$label traps Tab and Shift+Tab and returns the focus on Escape', async (example) => {
    const { portal, account: shared } = world();
    let account: SignedInAccount & { recoveryCode?: string } = shared;
    if (example.prepare) {
      const fresh = await newSignedInAccount(world());
      account = { ...fresh, ...(await example.prepare(fresh)) };
    }
    const page = await openSignedInPage(browser, account.token);
    await page.goto(`${portal.baseUrl}${example.path}`);
    await page.getByRole('heading', { level: 1, name: example.heading }).waitFor();
    const scope = example.openerIn ? page.getByTestId(example.openerIn) : page;
    const opener = scope.getByRole('button', { name: example.opener, exact: true });
    await opener.and(page.locator(':enabled')).waitFor();
    await settled(page);

    await tabTo(page, opener, 80);
    await page.keyboard.press('Enter');
    const first = page.getByRole('dialog');
    await first.waitFor();
    await expect.poll(() => hasFocusInside(first)).toBe(true);
    await example.reach?.(page, account);
    const dialog = page.getByRole('dialog', { name: example.dialog, exact: true });
    await dialog.waitFor();
    await settled(page);
    await expect.poll(() => hasFocusInside(dialog)).toBe(true);

    // More presses than the dialog has stops: the focus never leaves and comes round again.
    const stops = await dialog.evaluate(
      (element) =>
        element.querySelectorAll('a[href], button, input, select, textarea, [tabindex="0"]').length,
    );
    for (const key of ['Tab', 'Shift+Tab']) {
      const visited: string[] = [];
      for (let press = 0; press < stops + 2; press++) {
        await page.keyboard.press(key);
        expect(await hasFocusInside(dialog), `${key} left the dialog`).toBe(true);
        visited.push(await focusedElement(page));
      }
      expect(new Set(visited).size, `${key} did not come round: ${visited}`).toBeLessThan(
        visited.length,
      );
    }

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    const target = example.returnsTo
      ? scope.getByRole('button', { name: example.returnsTo, exact: true })
      : opener;
    // Without waiting for the element: an opener that is gone is a failure, not a hang.
    const hasFocus = () =>
      target.evaluateAll((elements) => elements.some((item) => item === document.activeElement));
    await expect
      .poll(async () => ((await hasFocus()) ? 'the opener' : await focusedElement(page)))
      .toBe('the opener');
  });
});
