import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  enableAuthenticator,
  fillRegistration,
  newAccount,
  postJson,
  registerAccount,
  registrationCode,
  signInByForm,
  startSiblingSite,
  totpCode,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

// A real SMTP server receives the letters; a local "sibling site", the hosting site with its API
// key, is the only allow-listed origin.
const HOSTING_KEY = 'e2e-hosting-key-0123456789abcdef';
let sibling: Awaited<ReturnType<typeof startSiblingSite>>;
const env: Record<string, string> = {};
beforeAll(async () => {
  sibling = await startSiblingSite();
  env.SSO_ALLOWED_ORIGINS = sibling.origin;
  env.HOSTING_URL = `${sibling.origin}/`;
  env.SIBLING_API_KEYS = `hosting:${HOSTING_KEY}`;
});
afterAll(async () => {
  await sibling?.close();
});
const world = setupPortalWithSmtp(env);

const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;
const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('access_token'));

async function openAuth(page: Page, pathname = '/auth') {
  await page.goto(url(pathname));
  await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
}

describe('registration', () => {
  it('registers, refuses a wrong code with red boxes, confirms by the mailed code, lands on /', async () => {
    const page = await browser.newPage();
    const account = newAccount();
    await openAuth(page);
    await fillRegistration(page, account);
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();

    await page.getByRole('heading', { level: 1, name: 'Подтверждение почты' }).waitFor();
    expect(await page.getByText(account.email).isVisible()).toBe(true);
    // The resend button waits out the first 60 s countdown.
    const resend = page.getByRole('button', { name: /^Отправить повторно через (1:00|0:5\d)$/ });
    expect(await resend.isDisabled()).toBe(true);

    browser.allowConsoleErrors(/status of 400/);
    const code = await registrationCode(world().smtp, account.email);
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    const boxes = page.getByLabel('Код из письма');
    await boxes.fill(wrong);
    await page.getByRole('alert').filter({ hasText: 'Неверный код' }).waitFor();
    expect(await page.locator('[data-invalid]').count()).toBe(1);
    expect(await storedToken(page)).toBeNull();

    // Typing again clears the red state; six characters submit by themselves.
    await boxes.fill(code);
    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    expect(await storedToken(page)).toMatch(/^[\w-]{40,}$/);
  });

  it("holds the resend button through the countdown and honours the server's Retry-After", async () => {
    const page = await browser.newPage();
    // The browser's clock only: the server keeps real time, so its countdown is still running.
    await page.clock.install();
    const account = newAccount();
    await openAuth(page);
    await fillRegistration(page, account);
    await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
    await page.getByRole('heading', { level: 1, name: 'Подтверждение почты' }).waitFor();
    await registrationCode(world().smtp, account.email);
    expect(
      await page.getByRole('button', { name: /^Отправить повторно через 1:00$/ }).isDisabled(),
    ).toBe(true);

    await page.clock.fastForward('01:01');
    const resend = page.getByRole('button', { name: 'Отправить код повторно', exact: true });
    await resend.waitFor();
    expect(await resend.isEnabled()).toBe(true);

    browser.allowConsoleErrors(/status of 429/);
    await resend.click();
    await waitForToast(page, 'Повторно отправить код можно через');
    const held = page.getByRole('button', { name: /^Отправить повторно через 0:[0-5]\d$/ });
    await held.waitFor();
    expect(await held.isDisabled()).toBe(true);
  });

  it('validates on change with a message per field and strips spaces from the username', async () => {
    const page = await browser.newPage();
    await openAuth(page);
    await page.getByRole('tab', { name: 'Регистрация' }).click();

    await page.getByLabel('Почта', { exact: true }).fill('not-an-email');
    await page.getByText('Некорректный email').waitFor();

    const username = page.getByLabel('Никнейм');
    await username.pressSequentially('pro gamer');
    expect(await username.inputValue()).toBe('progamer');
    await username.fill('игрок');
    await page.getByText('Никнейм не должен содержать кириллицу').waitFor();
    // A Greek omicron looks like a Latin o.
    await username.fill('gamer\u03bf');
    await page.getByText('Никнейм может содержать только латинские буквы, цифры, _ . -').waitFor();
    await page.getByLabel('Имя и фамилия').fill('Иван\u202e Петров');
    await page.getByText('Имя содержит недопустимые символы').waitFor();

    await page.getByLabel('Пароль', { exact: true }).fill('short');
    await page.getByText('Пароль должен содержать минимум 8 символов').waitFor();
    await page.getByLabel('Пароль', { exact: true }).fill('Longenough1');
    await page.getByLabel('Повторите пароль').fill('Longenough2');
    await page.getByText('Пароли не совпадают').waitFor();

    // Submit stays disabled until the consent box is ticked.
    const submit = page.getByRole('button', { name: 'Зарегистрироваться' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel(/согласие/).check();
    expect(await submit.isEnabled()).toBe(true);
  });
});

describe('sign-in', () => {
  it('signs out on the server, drops the dead token at start, and signs in again', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();

    browser.allowConsoleErrors(/status of 401/);
    // Signed out elsewhere: at the next start the token check fails, the token goes, /auth shows.
    await postJson(`${world().portal.baseUrl}/authms/api/Auth/logout`, {}, account.token);
    await page.reload();
    await page.waitForURL((address) => address.pathname === '/auth');
    await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
    expect(await storedToken(page)).toBeNull();

    await signInByForm(page, account.username.toUpperCase(), account.password);
    await waitForToast(page, 'Успешный вход');
    await page.waitForURL((address) => address.pathname === '/');
    const token = await storedToken(page);
    expect(token).not.toBeNull();
    expect(token).not.toBe(account.token);
  });

  it("shows the server's message for a wrong password and stays signed out", async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    browser.allowConsoleErrors(/status of 401/);
    await openAuth(page);
    await signInByForm(page, account.email, `${account.password}x`);
    await waitForToast(page, 'Неверный логин или пароль');
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(await storedToken(page)).toBeNull();
  });

  it('opens the code screen for an unconfirmed account signing in by e-mail', async () => {
    const account = newAccount();
    await registerAccount(world().portal.baseUrl, account);
    const code = await registrationCode(world().smtp, account.email);
    const page = await browser.newPage();
    browser.allowConsoleErrors(/status of 403/);
    await openAuth(page);
    await signInByForm(page, account.email, account.password);

    await waitForToast(page, 'Почта не подтверждена');
    await page.getByRole('heading', { level: 1, name: 'Подтверждение почты' }).waitFor();
    await page.getByLabel('Код из письма').fill(code);
    await page.waitForURL((address) => address.pathname === '/');
    expect(await storedToken(page)).not.toBeNull();
  });

  it('asks for the login and the password and links to password recovery', async () => {
    const page = await browser.newPage();
    await openAuth(page);
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.getByText('Введите логин').waitFor();
    await page.getByText('Введите пароль').waitFor();
    await page.getByRole('link', { name: 'Забыли пароль?' }).click();
    await page.waitForURL((address) => address.pathname === '/reset-password');
  });

  it('does not sign in with ?token=, even a live access token (someone else may have made the link)', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    await openAuth(page, `/auth?token=${encodeURIComponent(account.token)}`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(await storedToken(page)).toBeNull();
  });
});

describe('sign-in with two-factor', () => {
  it('keeps the user signed out until the authenticator code, then signs in', async () => {
    const account = await newSignedInAccount(world());
    const { secret } = await enableAuthenticator(world().portal.baseUrl, account);
    const page = await browser.newPage();
    await openAuth(page);
    await signInByForm(page, account.email, account.password);

    await waitForToast(page, 'Введите код двухфакторной аутентификации');
    const codeField = page.getByLabel('Код подтверждения');
    await codeField.waitFor();
    expect(await storedToken(page)).toBeNull();
    expect(new URL(page.url()).pathname).toBe('/auth');

    await codeField.fill('123');
    await page.getByText('Код должен содержать 6 символов').waitFor();
    // The step after the one spent on switching the authenticator on.
    await codeField.fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await waitForToast(page, 'Успешный вход');
    await page.waitForURL((address) => address.pathname === '/');
    expect(await storedToken(page)).not.toBeNull();
  });

  it('takes a recovery code instead, through the switch on the code field', async () => {
    const account = await newSignedInAccount(world());
    const { recoveryCodes } = await enableAuthenticator(world().portal.baseUrl, account);
    const page = await browser.newPage();
    await openAuth(page);
    await signInByForm(page, account.username, account.password);
    await page.getByLabel('Код подтверждения').waitFor();

    await page.getByRole('button', { name: 'Использовать резервный код' }).click();
    const recoveryField = page.getByLabel('Резервный код');
    await recoveryField.fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await waitForToast(page, 'Успешный вход');
    await page.waitForURL((address) => address.pathname === '/');
  });
});

describe('SSO hand-off (?link=)', () => {
  it('shows the redirect notice and carries a fresh hand-off code to an allow-listed site', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    const link = `${sibling.origin}/panel?tab=servers`;
    await page.goto(url(`/auth?link=${encodeURIComponent(link)}`));

    const notice = page.getByRole('status').filter({ hasText: 'Перенаправляем вас на' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(new URL(sibling.origin).host);

    await page.waitForURL((address) => address.origin === sibling.origin);
    const arrived = new URL(page.url());
    expect(arrived.pathname).toBe('/panel');
    expect(arrived.searchParams.get('tab')).toBe('servers');
    const handOffCode = arrived.searchParams.get('token');
    expect(handOffCode).toBeTruthy();
    // Not the portal's own token, but a code the sibling redeems once for a session of its own.
    expect(handOffCode).not.toBe(account.token);
    const redeem = (apiKey?: string) =>
      fetch(url('/authms/api/Auth/verify-token'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
        body: JSON.stringify({ token: handOffCode }),
      });
    // Only the hosting site's server, with its key, may redeem it.
    expect((await redeem()).status).toBe(401);
    const answer = await redeem(HOSTING_KEY);
    expect(answer.status).toBe(200);
    const redeemed = (await answer.json()) as { userId: string; token?: string };
    expect(redeemed.userId).toBe(account.userId);
    expect(redeemed.token).toBeTruthy();

    // The user sees the hosting site's session among their devices, named after the site.
    await page.goto(url('/profile/devices'));
    const hostingRow = page.getByTestId('device-row').filter({ hasText: 'Хостинг' });
    await hostingRow.waitFor();
    expect(await page.getByTestId('device-row').count()).toBe(2);
  });

  it('signs a visitor in first, then hands off', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    const link = `${sibling.origin}/after-login`;
    await openAuth(page, `/auth?link=${encodeURIComponent(link)}`);
    await signInByForm(page, account.email, account.password);
    await page.waitForURL((address) => address.origin === sibling.origin);
    expect(new URL(page.url()).pathname).toBe('/after-login');
  });

  it('ignores a link off the allow-list: no notice, no redirect, home instead', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    browser.allowConsoleErrors(/status of 400/);
    const foreignRequests: string[] = [];
    await page.route('**/evil.example/**', (route) => {
      foreignRequests.push(route.request().url());
      return route.fulfill({ status: 200, body: 'evil' });
    });
    await page.goto(url(`/auth?link=${encodeURIComponent('https://evil.example/steal')}`));
    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    expect(await page.getByText('Перенаправляем вас на').count()).toBe(0);
    expect(foreignRequests).toEqual([]);
  });
});
