import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { decodeQrPng, secretOfOtpauthUrl } from '../../server/test/support/two-factor';
import {
  enableAuthenticator,
  signInByForm,
  type TestAccount,
  totpCode,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

const STEP_MS = 30_000;

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/**
 * The code the authenticator app shows one step from now. The ±1-step window accepts it, and it
 * belongs to a later step than any code used a moment ago (a used step is never accepted again).
 */
const nextCode = (secret: string) => totpCode(secret, Date.now() + STEP_MS);

async function openProfile(token: string): Promise<Page> {
  const page = await browser.newPage({ localStorage: { access_token: token } });
  await page.goto(url('/profile'));
  await page.getByTestId('two-factor').waitFor();
  return page;
}

/**
 * The connect dialog's first step: the server refused the key (403, which the browser logs) until
 * the owner is proved, here by the password.
 */
async function proveByPassword(dialog: Locator, password: string) {
  browser.allowConsoleErrors(/status of 403/);
  await dialog.getByLabel('Текущий пароль').fill(password);
  await dialog.getByRole('button', { name: 'Продолжить' }).click();
}

/** Connects the authenticator through the profile; answers the secret read from the QR code. */
async function connectAuthenticator(page: Page, password: string): Promise<string> {
  const setting = page.getByTestId('two-factor');
  await setting.getByText('Не подключено').waitFor();
  await setting.getByRole('button', { name: 'Подключить' }).click();
  const dialog = page.getByRole('dialog', { name: 'Подключение Google Authenticator' });
  await proveByPassword(dialog, password);
  const qr = dialog.getByRole('img', { name: 'QR-код для приложения-аутентификатора' });
  await qr.waitFor();
  const source = (await qr.getAttribute('src')) ?? '';
  expect(source).toMatch(/^data:image\/png;base64,/);
  // What a phone would do: read the QR code, take the secret from the otpauth URI.
  const otpauthUrl = decodeQrPng(source.replace(/^data:image\/png;base64,/, ''));
  expect(otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
  const secret = secretOfOtpauthUrl(otpauthUrl);
  expect((await dialog.getByTestId('two-factor-secret').textContent())?.replaceAll(' ', '')).toBe(
    secret,
  );

  // 1–6 digits, else 'Заполните поле'.
  await dialog.getByRole('button', { name: 'Подключить' }).click();
  await dialog.getByText('Заполните поле').waitFor();
  await dialog.getByLabel('Код из приложения').fill(totpCode(secret));
  await dialog.getByRole('button', { name: 'Подключить' }).click();
  await dialog.waitFor({ state: 'hidden' });
  return secret;
}

async function signInWithCode(account: TestAccount, code: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url('/auth'));
  await signInByForm(page, account.username, account.password);
  // The server asks for the second factor: the code field appears, still signed out.
  const codeField = page.getByLabel('Код подтверждения');
  await codeField.waitFor();
  expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  await codeField.fill(code);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
  await page.waitForURL((address) => address.pathname === '/');
  return page;
}

describe('Google Authenticator on the profile', () => {
  it('asks the owner to prove it is them before the key is shown: the password, or a mailed code', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(account.token);
    const setting = page.getByTestId('two-factor');
    const enable = page.waitForResponse((response) => response.url().endsWith('/2fa/enable'));
    browser.allowConsoleErrors(/status of 403/, /status of 400/);
    await setting.getByRole('button', { name: 'Подключить' }).click();
    // A token alone is refused; the dialog asks for the proof instead of showing the key.
    expect((await enable).status()).toBe(403);
    const dialog = page.getByRole('dialog', { name: 'Подключение Google Authenticator' });
    await dialog.getByText('Чтобы продолжить, подтвердите, что это вы').waitFor();
    expect(await dialog.getByRole('img').count()).toBe(0);

    await dialog.getByRole('button', { name: 'Продолжить' }).click();
    await dialog.getByText('Введите текущий пароль', { exact: true }).waitFor();
    await proveByPassword(dialog, 'Wrong-Pass-123');
    await dialog.getByText('Неверный текущий пароль').waitFor();
    expect(await dialog.getByRole('img').count()).toBe(0);

    // The other way: a code mailed to the account's address.
    await dialog.getByRole('button', { name: 'Получить код на почту' }).click();
    await dialog.getByText(account.email).waitFor();
    const letter = await world().smtp.waitForLetter(account.email);
    await dialog.getByLabel('Код из письма').fill(codeIn(letter.text));
    await dialog.getByRole('img', { name: 'QR-код для приложения-аутентификатора' }).waitFor();
    await dialog.getByTestId('two-factor-secret').waitFor();
  });

  it('connects by the code from the QR secret; then sign-in needs that code', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(account.token);
    const secret = await connectAuthenticator(page, account.password);

    // Ten recovery codes, shown once, with copy and download.
    const codesDialog = page.getByRole('dialog', { name: 'Резервные коды' });
    await codesDialog.waitFor();
    const codes = await codesDialog.getByRole('listitem').allInnerTexts();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    const download = page.waitForEvent('download');
    await codesDialog.getByRole('button', { name: 'Скачать' }).click();
    expect((await download).suggestedFilename()).toBe('recovery-codes.txt');
    expect(await codesDialog.getByRole('button', { name: 'Скопировать' }).isVisible()).toBe(true);
    await codesDialog.getByRole('button', { name: 'Я сохранил коды' }).click();
    await codesDialog.waitFor({ state: 'hidden' });

    const setting = page.getByTestId('two-factor');
    await setting.getByText('Подключено', { exact: true }).waitFor();
    await setting.getByText('Резервных кодов осталось: 10').waitFor();
    // A verified code sets the requiresTwoFactor flag.
    expect(await page.evaluate(() => localStorage.getItem('requiresTwoFactor'))).toBe('true');

    // Sign out (the session ends on the server), then sign in again: password, then the code.
    const logout = await fetch(url('/authms/api/Auth/logout'), {
      method: 'POST',
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(logout.status).toBe(200);
    const again = await signInWithCode(account, nextCode(secret));
    expect(await again.evaluate(() => localStorage.getItem('access_token'))).not.toBeNull();
  });

  it('a wrong code keeps it off, with the server message; disabling needs a code', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(account.token);
    const setting = page.getByTestId('two-factor');
    await setting.getByRole('button', { name: 'Подключить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Подключение Google Authenticator' });
    await proveByPassword(dialog, account.password);
    const source = (await dialog.getByRole('img').getAttribute('src')) ?? '';
    const secret = secretOfOtpauthUrl(decodeQrPng(source.split(',')[1] ?? ''));

    browser.allowConsoleErrors(/status of 400/);
    const right = totpCode(secret);
    await dialog.getByLabel('Код из приложения').fill(right === '000000' ? '111111' : '000000');
    await dialog.getByRole('button', { name: 'Подключить' }).click();
    // Under the field, not as a toast (server-errors-once.e2e.ts).
    await dialog.getByText('Неверный код').waitFor();
    // A failed verify clears the flag.
    expect(await page.evaluate(() => localStorage.getItem('requiresTwoFactor'))).toBeNull();
    expect(await dialog.isVisible()).toBe(true);

    await dialog.getByLabel('Код из приложения').fill(right);
    await dialog.getByRole('button', { name: 'Подключить' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Резервные коды' });
    await codesDialog.getByRole('listitem').first().waitFor();
    const recovery = await codesDialog.getByRole('listitem').allInnerTexts();
    await codesDialog.getByRole('button', { name: 'Я сохранил коды' }).click();

    await setting.getByRole('button', { name: 'Отключить' }).click();
    const confirm = page.getByRole('dialog', { name: 'Отключить Google Authenticator?' });
    await confirm.getByLabel('Код подтверждения').fill('000000');
    const refused = page.waitForResponse((response) => response.url().endsWith('/2fa/disable'));
    await confirm.getByRole('button', { name: 'Отключить' }).click();
    expect((await refused).status()).toBe(400);
    // Shown once, where it belongs: under the field, which is marked; no toast besides.
    const codeField = confirm.getByLabel('Код подтверждения');
    await confirm.getByText('Неверный код').waitFor();
    expect(await codeField.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('[data-sonner-toast]', { hasText: 'Неверный код' }).count()).toBe(0);
    await setting.getByText('Подключено', { exact: true }).waitFor();

    // A recovery code stands in for the app (a lost phone).
    await confirm.getByLabel('Код подтверждения').fill(recovery[0] ?? '');
    await confirm.getByRole('button', { name: 'Отключить' }).click();
    await waitForToast(page, 'Аутентификатор отключён');
    await setting.getByText('Не подключено').waitFor();

    // Login needs no code any more.
    const login = await fetch(url('/authms/api/Auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
    });
    expect(((await login.json()) as { token?: string }).token).toEqual(expect.any(String));
  });

  it("signs in with a recovery code through 'Использовать резервный код', once", async () => {
    const account = await newSignedInAccount(world());
    const { recoveryCodes } = await enableAuthenticator(world().portal.baseUrl, account);

    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await signInByForm(page, account.username, account.password);
    await page.getByRole('button', { name: 'Использовать резервный код' }).click();
    await page.getByLabel('Резервный код').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.waitForURL((address) => address.pathname === '/');

    // Spent: the same code does not sign in again.
    const again = await fetch(url('/authms/api/Auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        usernameOrEmail: account.username,
        password: account.password,
        twoFactorCode: recoveryCodes[0],
      }),
    });
    expect(again.status).toBe(401);
  });

  it("says 'Почта не найдена' when the account has no e-mail", async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    await page.route('**/authms/api/Auth/user', async (route) => {
      const response = await route.fetch();
      const user = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...user, email: '' } });
    });
    await page.goto(url('/profile'));
    const setting = page.getByTestId('two-factor');
    await setting.getByRole('button', { name: 'Подключить' }).click();
    await waitForToast(page, 'Почта не найдена');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
