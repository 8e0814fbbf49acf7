import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { sessionStatus, signInByForm, waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

const NEW_PASSWORD = 'Marble-Falcon72';

// Letters go through a real SMTP exchange: the portal's SMTP_URL points at this server.
const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

async function openStepOne(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(url('/reset-password'));
  await page.getByRole('heading', { level: 1, name: 'Обновление пароля' }).waitFor();
  return page;
}

/** Step 1 done for `email`: the page shows step 2. */
async function requestCode(page: Page, email: string) {
  await page.getByPlaceholder('Ваш email').fill(email);
  await page.getByRole('button', { name: 'Продолжить' }).click();
  await page.getByLabel('Введите код').waitFor();
}

describe('/reset-password', () => {
  it('step 2 survives a reload with its address and countdown; Back returns to step 1, Forward to step 2', async () => {
    const account = await newSignedInAccount(world());
    const page = await openStepOne();
    await requestCode(page, account.email);
    expect(new URL(page.url()).search).toBe('?step=code');
    const countdown = page.getByRole('button', { name: /^Отправить код повторно через/ });
    const secondsLeft = async () => {
      const [, minutes = '0', seconds = '0'] =
        /(\d+):(\d\d)$/.exec((await countdown.textContent()) ?? '') ?? [];
      return Number(minutes) * 60 + Number(seconds);
    };
    await countdown.waitFor();
    const before = await secondsLeft();

    await page.reload();
    await page.getByLabel('Введите код').waitFor();
    expect(await page.getByText(account.email).isVisible()).toBe(true);
    // The countdown goes on from where it was, not from the start.
    await countdown.waitFor();
    expect(await secondsLeft()).toBeLessThanOrEqual(before);

    await page.goBack();
    await page.getByPlaceholder('Ваш email').waitFor();
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    expect(await page.getByPlaceholder('Ваш email').inputValue()).toBe(account.email);

    await page.goForward();
    await page.getByLabel('Введите код').waitFor();
    // Step 2 works after all of it: the mailed code resets the password.
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);
    await page.getByLabel('Введите код').fill(code);
    await page.getByLabel('Новый пароль', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByRole('heading', { level: 1, name: 'Пароль обновлен' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
  });

  it('step 1 checks the address and links back to /auth', async () => {
    const page = await openStepOne();
    expect(await page.getByText('Укажите почту, пароль к которой вы забыли').isVisible()).toBe(
      true,
    );
    await page.getByPlaceholder('Ваш email').fill('not-an-address');
    await page.getByRole('button', { name: 'Продолжить' }).click();
    await page.getByText('Некорректный email').waitFor();
    // Editing the field clears its message.
    await page.getByPlaceholder('Ваш email').fill('not-an-address@');
    await page.getByText('Некорректный email').waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'Назад' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');
  });

  it('resets by the mailed code, signs out everywhere, then the new password signs in', async () => {
    const account = await newSignedInAccount(world());
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(200);

    const page = await openStepOne();
    const calls: Array<{ path: string; body: unknown }> = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/authms/')) calls.push({ path, body: request.postDataJSON() });
    });
    await requestCode(page, account.email);
    const letter = await world().smtp.waitForLetter(account.email);
    expect(letter.subject).toContain('код для сброса пароля');
    const code = codeIn(letter.text);

    // Step 2 checks its fields before asking the server; the first message of each shows.
    const box = page.getByRole('checkbox', { name: 'Выйти из всех активных сеансов входа' });
    expect(await box.isChecked()).toBe(true);
    await page.getByLabel('Введите код').fill(code.slice(0, 5));
    await page.getByLabel('Новый пароль').fill('short');
    await page.getByLabel('Повторите пароль').fill('other');
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByText('Введите код, отправленный на почту').waitFor();
    await page.getByText('Пароль должен содержать минимум 8 символов').waitFor();
    await page.getByText('Пароли не совпадают').waitFor();
    await page.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await page
      .getByText('Пароль должен содержать минимум 8 символов')
      .waitFor({ state: 'detached' });
    expect(await page.getByText('Введите код, отправленный на почту').isVisible()).toBe(true);

    // A refused code keeps step 2, with the code field's message and no toast.
    browser.allowConsoleErrors(/status of 400/);
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    await page.getByLabel('Введите код').fill(wrong);
    await page.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByText('Неверный код', { exact: true }).waitFor();
    expect(await page.getByText('Введите код, отправленный на почту').count()).toBe(0);
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(200);

    await page.getByLabel('Введите код').fill(code);
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByRole('heading', { level: 1, name: 'Пароль обновлен' }).waitFor();
    // The box was checked: the other session ended with the reset, in the reset call itself.
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(401);
    expect(calls.at(-1)).toMatchObject({
      path: '/authms/api/Auth/reset-password-with-code',
      body: { logoutEverywhere: true },
    });
    expect(calls.some((call) => call.path.endsWith('/logout-all'))).toBe(false);

    await page.getByRole('button', { name: 'Готово' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');
    await signInByForm(page, account.email, NEW_PASSWORD);
    await page.waitForURL((address) => address.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).not.toBeNull();
  });

  it('a code that no longer works says to ask for a new one, and step 2 sends one after the countdown', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    // The browser's clock only, for the countdown; the server keeps real time.
    await page.clock.install();
    await page.goto(url('/reset-password'));
    await requestCode(page, account.email);
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);
    const resend = page.getByRole('button', {
      name: /^Отправить код повторно через (1:00|0:5\d)$/,
    });
    expect(await resend.isDisabled()).toBe(true);

    browser.allowConsoleErrors(/status of 400/);
    await page.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await page.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    const submit = async (value: string) => {
      await page.getByLabel('Введите код').fill(value);
      await Promise.all([
        page.waitForResponse((answer) => answer.url().endsWith('/reset-password-with-code')),
        page.getByRole('button', { name: 'Обновить пароль' }).click(),
      ]);
    };
    // Five wrong tries spend the code: even the right one is refused then, and the page says why.
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    for (let attempt = 1; attempt <= 5; attempt++) {
      await submit(wrong);
      await page.getByText('Неверный код', { exact: true }).waitFor();
    }
    await submit(code);
    await page.getByText('Слишком много неверных попыток. Запросите новый код').waitFor();

    await page.clock.fastForward('01:01');
    const again = page.getByRole('button', { name: 'Отправить код повторно', exact: true });
    await again.waitFor();
    const [request] = await Promise.all([
      page.waitForRequest((sent) => sent.url().endsWith('/forgot-password')),
      again.click(),
    ]);
    expect(request.postDataJSON()).toBe(account.email);
    await waitForToast(page, 'Если эта почта зарегистрирована, мы отправили на неё код');
    // The code field starts over, and the next resend waits 30 s.
    expect(await page.getByLabel('Введите код').inputValue()).toBe('');
    await page.getByText('Слишком много неверных попыток').waitFor({ state: 'detached' });
    const held = page.getByRole('button', { name: /^Отправить код повторно через 0:(30|2\d)$/ });
    await held.waitFor();
    expect(await held.isDisabled()).toBe(true);
  });

  it('with the box unticked the other sessions live on; Назад returns to step 1', async () => {
    const account = await newSignedInAccount(world());
    const page = await openStepOne();
    await requestCode(page, account.email);
    await page.getByRole('button', { name: 'Назад' }).click();
    await page.getByText('Укажите почту, пароль к которой вы забыли').waitFor();
    expect(await page.getByPlaceholder('Ваш email').inputValue()).toBe(account.email);
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);

    // The countdown holds a second letter back; the code of the first one still works.
    await requestCode(page, account.email);
    await page.getByLabel('Введите код').fill(code);
    await page.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await page.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await page.getByRole('checkbox', { name: 'Выйти из всех активных сеансов входа' }).uncheck();
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByRole('heading', { level: 1, name: 'Пароль обновлен' }).waitFor();
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(200);
  });

  it('Продолжить again inside the countdown sends no letter and keeps the countdown where it was', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    await page.clock.install();
    await page.goto(url('/reset-password'));
    const asked: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/forgot-password')) asked.push(request.url());
    });
    await requestCode(page, account.email);
    await page.getByText('Код отправлен на').waitFor();
    await world().smtp.waitForLetter(account.email);
    await page.clock.fastForward('00:20');
    await page.getByRole('button', { name: /^Отправить код повторно через 0:4\d$/ }).waitFor();

    // Back to step 1 (as to fix a typo) and on again with the same address, 20 s later.
    await page.getByRole('button', { name: 'Назад' }).click();
    await page.getByRole('button', { name: 'Продолжить' }).click();
    await page.getByLabel('Введите код').waitFor();
    // No new letter is claimed: the page says the code is already on its way, and the
    // countdown goes on from where it was instead of starting at 1:00 again.
    await page.getByText('Код уже отправлен на').waitFor();
    await page
      .getByRole('button', { name: /^Отправить код повторно через 0:(4\d|3\d)$/ })
      .waitFor();
    expect(asked).toHaveLength(1);
  });

  it('refuses a password with Cyrillic by the Cyrillic message, as registration does', async () => {
    const page = await openStepOne();
    await requestCode(page, 'cyrillic.password@example.com');
    await page.getByLabel('Введите код').fill('123456');
    await page.getByLabel('Новый пароль').fill('Пароль2024a');
    await page.getByLabel('Повторите пароль').fill('Пароль2024a');
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByText('Пароль не должен содержать кириллицу').waitFor();
    expect(await page.getByText('заглавную букву').count()).toBe(0);
  });

  it('answers an unknown address like a known one: step 2, and no letter', async () => {
    const page = await openStepOne();
    await requestCode(page, 'nobody.at.all@example.com');
    expect(await page.getByText('nobody.at.all@example.com').isVisible()).toBe(true);
    expect(world().smtp.letters.some((item) => item.to.includes('nobody.at.all@example.com'))).toBe(
      false,
    );
  });
});
