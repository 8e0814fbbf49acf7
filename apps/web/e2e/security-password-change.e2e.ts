import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import {
  enableAuthenticator,
  postJson,
  sessionStatus,
  type TestAccount,
  totpCode,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

const NEW_PASSWORD = 'Copper-Heron58';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function loginStatus(account: TestAccount, password: string): Promise<number> {
  const response = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: account.username, password }),
  });
  return response.status;
}

async function openProfile(token: string): Promise<Page> {
  const page = await browser.newPage({ localStorage: { access_token: token } });
  await page.goto(url('/profile'));
  await page.getByTestId('password-change').waitFor();
  return page;
}

async function startChange(page: Page) {
  await page.getByTestId('password-change').getByRole('button', { name: 'Сменить пароль' }).click();
  const dialog = page.getByRole('dialog', { name: 'Вы уверены, что хотите сменить пароль?' });
  await dialog.getByRole('button', { name: 'Да' }).click();
  return page.getByRole('dialog', { name: 'Подтверждение' });
}

describe('password change from the profile', () => {
  it('confirms by the mailed code, saves with a spinner, and can end the other sessions', async () => {
    const account = await newSignedInAccount(world());
    const otherDevice = (await postJson(url('/authms/api/Auth/login'), {
      usernameOrEmail: account.username,
      password: account.password,
    })) as { token: string };
    const page = await openProfile(account.token);

    // 'Нет' changes nothing and sends nothing.
    await page
      .getByTestId('password-change')
      .getByRole('button', { name: 'Сменить пароль' })
      .click();
    const question = page.getByRole('dialog', { name: 'Вы уверены, что хотите сменить пароль?' });
    await question.getByRole('button', { name: 'Нет' }).click();
    await question.waitFor({ state: 'hidden' });

    const confirmation = await startChange(page);
    await waitForToast(page, 'Код подтверждения отправлен на почту');
    await confirmation.getByText(account.email).waitFor();
    const letter = await world().smtp.waitForLetter(account.email);
    expect(letter.subject).toContain('код для смены пароля');
    await confirmation.getByLabel('Код из письма').fill(codeIn(letter.text));

    const form = page.getByRole('dialog', { name: 'Смена пароля' });
    await form.getByLabel('Текущий пароль').waitFor();
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await form.getByText('Введите текущий пароль').waitFor();
    await form.getByLabel('Текущий пароль').fill(account.password);
    await form.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await form.getByLabel('Повторите пароль').fill(`${NEW_PASSWORD}x`);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    // The mismatch message shows under the repeat field the user typed in, although the request
    // names that field differently.
    await form.getByText('Пароли не совпадают').waitFor();
    await form.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await form.getByRole('checkbox', { name: 'Выйти на всех остальных устройствах' }).check();

    // Hold the call back until the spinner has been seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/portal/auth/password/change', async (route) => {
      await held;
      await route.continue();
    });
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await page.getByText('Подождите пару секунд').waitFor();
    release();

    await waitForToast(page, 'Пароль успешно изменён');
    await form.waitFor({ state: 'hidden' });
    expect(await sessionStatus(world().portal.baseUrl, otherDevice.token)).toBe(401);
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(200);
    expect(await loginStatus(account, NEW_PASSWORD)).toBe(200);
    expect(await loginStatus(account, account.password)).toBe(401);
  });

  it('checks the mailed code at the code step: a wrong one stays there, the right one opens the form', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(account.token);
    const confirmation = await startChange(page);
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;

    browser.allowConsoleErrors(/status of 400/);
    await confirmation.getByLabel('Код из письма').fill(wrong);
    // Refused where it was typed, with the tries left; the password form never opens for it.
    await confirmation.getByText('Неверный код. Осталось попыток: 4').waitFor();
    const form = page.getByRole('dialog', { name: 'Смена пароля' });
    expect(await form.count()).toBe(0);

    // The check did not spend the right code: it opens the form and then changes the password.
    await confirmation.getByLabel('Код из письма').fill(code);
    await form.getByLabel('Текущий пароль').fill(account.password);
    await form.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await form.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Пароль успешно изменён');
    expect(await loginStatus(account, NEW_PASSWORD)).toBe(200);
  });

  it('a wrong current password is the server message, and nothing changes', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(account.token);
    const confirmation = await startChange(page);
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);
    await confirmation.getByLabel('Код из письма').fill(code);
    const form = page.getByRole('dialog', { name: 'Смена пароля' });
    await form.getByLabel('Текущий пароль').fill('Not-My-Password1');
    await form.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await form.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    browser.allowConsoleErrors(/status of 400/);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    // Under the field only (server-errors-once.e2e.ts checks that no toast says it).
    await form.getByText('Неверный текущий пароль').waitFor();
    expect(await loginStatus(account, account.password)).toBe(200);
  });

  it('with the authenticator on, its code confirms instead of a letter', async () => {
    const account = await newSignedInAccount(world());
    const { secret } = await enableAuthenticator(world().portal.baseUrl, account);

    const page = await openProfile(account.token);
    const confirmation = await startChange(page);
    await confirmation.getByText('Введите код из приложения Google Authenticator.').waitFor();
    // The next step's code: the ±1 window takes it, and it is later than the step just used.
    await confirmation.getByLabel('Код из приложения').fill(totpCode(secret, Date.now() + 30_000));
    const form = page.getByRole('dialog', { name: 'Смена пароля' });
    await form.getByLabel('Текущий пароль').fill(account.password);
    await form.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await form.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Пароль успешно изменён');
    expect(
      world().smtp.letters.some(
        (item) => item.subject.includes('код для смены пароля') && item.to.includes(account.email),
      ),
    ).toBe(false);
  });
});
