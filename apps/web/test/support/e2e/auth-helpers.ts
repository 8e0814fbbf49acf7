import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { codeIn, type TestSmtpServer } from '../../../../server/test/support/smtp-server';

let accountCounter = 0;

export type TestAccount = {
  email: string;
  username: string;
  password: string;
  name: string;
};

/** A fresh, unique account (the server refuses a taken username or e-mail). */
export function newAccount(): TestAccount {
  accountCounter += 1;
  const suffix = `${Date.now().toString(36).slice(-5)}${accountCounter}`;
  return {
    email: `player.${suffix}@example.com`,
    username: `pl_${suffix}`.slice(0, 16),
    password: `Secret${suffix}Zx9`,
    name: 'Иван Петров',
  };
}

/** On /auth: opens the registration tab and fills its form for `account`, consent included. */
export async function fillRegistration(page: Page, account: TestAccount) {
  await page.getByRole('tab', { name: 'Регистрация' }).click();
  await page.getByLabel('Почта', { exact: true }).fill(account.email);
  await page.getByLabel('Имя и фамилия').fill(account.name);
  await page.getByLabel('Никнейм').fill(account.username);
  await page.getByLabel('Пароль', { exact: true }).fill(account.password);
  await page.getByLabel('Повторите пароль').fill(account.password);
  await page.getByLabel(/согласие/).check();
}

/** The six-digit code of the newest registration letter to `email`, from the real SMTP server. */
export async function registrationCode(smtp: TestSmtpServer, email: string): Promise<string> {
  const letter = await smtp.waitForLetter(email);
  return codeIn(letter.text);
}

/** Registers the account through the API; it stays unconfirmed until the mailed code is sent. */
export async function registerAccount(baseUrl: string, account: TestAccount): Promise<void> {
  const [firstName = '', lastName = ''] = account.name.split(' ');
  await postJson(`${baseUrl}/authms/api/Auth/register`, {
    email: account.email,
    password: account.password,
    username: account.username,
    firstName,
    lastName,
  });
}

/**
 * A confirmed account and a session made through the API (fixtures do not click through the UI:
 * that is slow and tests the sign-in screens again); answers the access token.
 */
export async function createSignedInAccount(
  baseUrl: string,
  smtp: TestSmtpServer,
  account: TestAccount = newAccount(),
): Promise<TestAccount & { token: string; userId: string }> {
  await registerAccount(baseUrl, account);
  const code = await registrationCode(smtp, account.email);
  const answer = (await postJson(`${baseUrl}/authms/api/Auth/verify-registration`, {
    email: account.email,
    code,
  })) as { token: string; userId: string };
  return { ...account, token: answer.token, userId: answer.userId };
}

export async function postJson(url: string, body: unknown, token?: string): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const data: unknown = await response.json();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(data)}`);
  return data;
}

/** A stand-in for a sibling site on the allow-list: any path answers a small page. */
export async function startSiblingSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Сайт-партнёр</title><h1>Сайт-партнёр</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** On /auth: the Войти form filled with `login` and `password`, then «Войти» pressed. */
export async function signInByForm(page: Page, login: string, password: string) {
  await page.getByLabel('Логин или почта').fill(login);
  await page.getByLabel('Пароль', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Войти', exact: true }).click();
}

export async function waitForToast(page: Page, text: string) {
  await page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor();
}

/**
 * Switches the authenticator on through the API (the password proves the owner first, as the
 * profile asks); answers its secret and the recovery codes.
 */
export async function enableAuthenticator(
  baseUrl: string,
  { token, password }: { token: string; password: string },
): Promise<{ secret: string; recoveryCodes: string[] }> {
  await postJson(`${baseUrl}/authms/api/Auth/proof`, { password }, token);
  const { secret } = (await postJson(`${baseUrl}/authms/api/Auth/2fa/enable`, {}, token)) as {
    secret: string;
  };
  const { recoveryCodes } = (await postJson(
    `${baseUrl}/authms/api/Auth/2fa/verify`,
    { code: totpCode(secret) },
    token,
  )) as { recoveryCodes: string[] };
  return { secret, recoveryCodes };
}

/**
 * The authenticator's code at `at` (SHA-1, 6 digits, 30 s, as the server's). The server accepts
 * ±1 step and never the same step twice, so a second code in a test is taken from the next step.
 */
export function totpCode(secret: string, at: number = Date.now()): string {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  }).generate({ timestamp: at });
}

/** What any call of a device with this token gets: 200 while its session lives, 401 after. */
export async function sessionStatus(baseUrl: string, token: string): Promise<number> {
  const response = await fetch(`${baseUrl}/authms/api/Auth/user`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  return response.status;
}
