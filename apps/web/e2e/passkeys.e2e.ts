import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../test/support/e2e/a11y-helpers';
import { signInByForm, waitForToast } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, type NewPageOptions, setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import {
  addVirtualAuthenticator,
  withoutPasskeyAutofill,
} from '../test/support/e2e/passkey-helpers';

// Passkeys need a secure context and a relying party id that is a domain: the portal is browsed
// as http://localhost (portal.ts, `host`), and Chromium's virtual authenticator answers the
// browser's dialogs (a platform authenticator that keeps discoverable credentials and verifies
// its user).
const world = setupPortalWithSmtp({}, { host: 'localhost' });
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function openProfile(page: Page) {
  await page.goto(url('/profile'));
  await page.getByRole('heading', { level: 2, name: 'Ключи доступа' }).waitFor();
}

const passkeyRows = (page: Page) => page.getByTestId('passkey');

/** The proof step inside `dialog`: the account's password. */
async function proveByPassword(dialog: Locator, account: SignedInAccount) {
  browser.allowConsoleErrors(/status of 403/);
  await dialog.getByLabel('Текущий пароль').fill(account.password);
  await dialog.getByRole('button', { name: 'Продолжить' }).click();
}

async function addPasskey(page: Page, account: SignedInAccount, name: string) {
  await page.getByRole('button', { name: 'Добавить ключ' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый ключ доступа' });
  await dialog.getByLabel('Название').fill(name);
  await dialog.getByRole('button', { name: 'Создать ключ' }).click();
  // The session has not proved its owner lately: the proof step, then the browser's dialog.
  await proveByPassword(dialog, account);
  await waitForToast(page, 'Ключ доступа добавлен');
  await dialog.waitFor({ state: 'detached' });
}

describe('passkeys', () => {
  it('adds a passkey, signs in with it, renames and deletes it', async () => {
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token);
    const authenticator = await addVirtualAuthenticator(page);
    await openProfile(page);
    await page.getByText('Ключей доступа пока нет').waitFor();

    await addPasskey(page, account, 'Ноутбук');
    await expect.poll(() => passkeyRows(page).count()).toBe(1);
    expect(await passkeyRows(page).first().textContent()).toMatch(
      /Ноутбук.*Добавлен \d{1,2} [а-я]+ \d{4} г\. · Ещё не использовался/,
    );
    const [credential] = await authenticator.credentials();
    expect(credential?.isResidentCredential).toBe(true);
    expect(credential?.rpId).toBe('localhost');

    // Sign out, then in with «Войти с ключом доступа»: no login, no password, no code.
    await page.getByRole('button', { name: 'Выйти из аккаунта' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');
    expect(await page.getByLabel('Логин или почта').getAttribute('autocomplete')).toBe(
      'username webauthn',
    );
    await page.getByRole('button', { name: 'Войти с ключом доступа' }).click();
    await page.waitForURL((address) => address.pathname === '/');
    await waitForToast(page, 'Успешный вход');

    await openProfile(page);
    await expect
      .poll(() => passkeyRows(page).first().textContent())
      .toMatch(/Использован \d{1,2} [а-я]+ \d{4} г\./);

    // Rename.
    await page.getByRole('button', { name: 'Переименовать: Ноутбук' }).click();
    const rename = page.getByRole('dialog', { name: 'Название ключа' });
    await rename.getByLabel('Название').fill('Рабочий ноутбук');
    await rename.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Ключ доступа переименован');
    await expect.poll(() => passkeyRows(page).first().textContent()).toContain('Рабочий ноутбук');

    // Delete: a confirmation, then (the passkey sign-in proved nothing lately) the proof step.
    await page.getByRole('button', { name: 'Удалить: Рабочий ноутбук' }).click();
    const remove = page.getByRole('dialog', { name: 'Удалить ключ доступа?' });
    await remove.getByText('Ключ «Рабочий ноутбук» перестанет открывать аккаунт').waitFor();
    await remove.getByRole('button', { name: 'Удалить' }).click();
    await proveByPassword(remove, account);
    await waitForToast(page, 'Ключ доступа удалён');
    await page.getByText('Ключей доступа пока нет').waitFor();
    expect(await passkeyRows(page).count()).toBe(0);

    // The security log names both and the sign-in.
    await page.goto(url('/profile/security-log'));
    await page.getByRole('heading', { level: 1, name: 'Журнал безопасности' }).waitFor();
    const events = page.getByTestId('security-event');
    await expect.poll(() => events.count()).toBeGreaterThanOrEqual(4);
    const texts = await events.allTextContents();
    expect(texts[0]).toContain('Удалён ключ доступа');
    expect(texts.join('\n')).toContain('Вход с ключом доступа');
    expect(texts.join('\n')).toContain('Добавлен ключ доступа');
  });

  it('signs in through the login field’s autofill where the browser offers it', async () => {
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token);
    await addVirtualAuthenticator(page);
    await openProfile(page);
    await addPasskey(page, account, 'Ноутбук');
    const signIn = page.waitForResponse((response) => response.url().endsWith('/passkeys/sign-in'));
    await page.getByRole('button', { name: 'Выйти из аккаунта' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');
    // The login field starts a conditional request when it first gets the focus; Chromium's
    // virtual authenticator picks the only passkey at once, where a person would choose it among
    // the field's suggestions.
    await page.getByLabel('Логин или почта').click();
    expect((await signIn).status()).toBe(200);
    await page.waitForURL((address) => address.pathname === '/');
    await waitForToast(page, 'Успешный вход');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toEqual(
      expect.any(String),
    );
  });

  it('asks for the passkey after the password when it is the only second factor', async () => {
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token);
    await addVirtualAuthenticator(page);
    await openProfile(page);
    await addPasskey(page, account, 'Ноутбук');
    // The login field's autofill would sign in before the password is typed.
    await withoutPasskeyAutofill(page);
    await page.getByRole('button', { name: 'Выйти из аккаунта' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');

    const logins = [] as number[];
    page.on('response', (response) => {
      if (response.url().endsWith('/Auth/login')) logins.push(response.status());
    });
    await signInByForm(page, account.username, account.password);
    // The password was right; the browser's passkey dialog (the virtual authenticator) follows,
    // then the login is sent again with the passkey's answer. No code field on the way.
    await page.waitForURL((address) => address.pathname === '/');
    await waitForToast(page, 'Успешный вход');
    expect(logins).toEqual([200, 200]);
  });

  it.each([
    ['light', {}],
    ['dark', {}],
    ['dark at 375 px', { viewport: MOBILE_VIEWPORT }],
    ['light at 375 px', { viewport: MOBILE_VIEWPORT }],
  ] as const)('reads in the %s theme with no serious axe violation', async (label, extra) => {
    const colorScheme = label.startsWith('light') ? 'light' : 'dark';
    const options: NewPageOptions = { colorScheme, ...extra };
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token, options);
    await addVirtualAuthenticator(page);
    await openProfile(page);
    await addPasskey(page, account, 'Телефон с очень длинным названием для проверки переноса');
    await expect.poll(() => passkeyRows(page).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
    expect(await seriousViolations(page)).toEqual([]);
    const width = options.viewport?.width;
    if (width) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
    }

    // The remove dialog and /auth with its passkey button, too.
    await page.getByRole('button', { name: /^Удалить: / }).click();
    await page.getByRole('dialog', { name: 'Удалить ключ доступа?' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const visitor = await browser.newPage(options);
    await visitor.goto(url('/auth'));
    await visitor.getByRole('button', { name: 'Войти с ключом доступа' }).waitFor();
    expect(await seriousViolations(visitor)).toEqual([]);
  });
});
