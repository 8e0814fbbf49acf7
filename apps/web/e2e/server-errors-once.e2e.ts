import { USERNAME_TAKEN } from '@portal/contracts/messages';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { decodeQrPng, secretOfOtpauthUrl } from '../../server/test/support/two-factor';
import { totpCode, waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';
import { openProfile } from '../test/support/e2e/profile-helpers';

// A server's refusal is shown once: under the field the answer names, else as a toast; never
// both, never neither (apps/web/src/shared/lib/show-failure.ts).

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const baseUrl = () => world().portal.baseUrl;

/**
 * Every toast text the page shows from now on, kept even after the toast has closed (they close
 * after 3 s): read it once a later toast is seen, and an earlier one cannot be missed.
 */
async function recordToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { seenToasts: Set<string> }).seenToasts = seen;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        seen.add(toast.textContent ?? '');
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () =>
    page.evaluate(() => [...(window as unknown as { seenToasts: Set<string> }).seenToasts]);
}

/** The message under a field: the element its aria-describedby names, and the field is marked. */
async function messageUnder(field: Locator): Promise<string> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const id = await field.getAttribute('aria-describedby');
  return (await field.page().locator(`[id="${id}"]`).textContent()) ?? '';
}

describe('a server refusal is shown once', () => {
  it('authenticator connect: a wrong code under the field, no toast; a failure of no field, a toast', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(browser, baseUrl(), account.token);
    const toasts = await recordToasts(page);
    await page.getByTestId('two-factor').getByRole('button', { name: 'Подключить' }).click();
    const dialog = page.getByRole('dialog', { name: 'Подключение Google Authenticator' });
    browser.allowConsoleErrors(/status of (403|400|503)/);
    await dialog.getByLabel('Текущий пароль').fill(account.password);
    await dialog.getByRole('button', { name: 'Продолжить' }).click();
    const qr = dialog.getByRole('img', { name: 'QR-код для приложения-аутентификатора' });
    const source = (await qr.getAttribute('src')) ?? '';
    const secret = secretOfOtpauthUrl(decodeQrPng(source.split(',')[1] ?? ''));
    const right = totpCode(secret);
    const code = dialog.getByLabel('Код из приложения');

    await code.fill(right === '000000' ? '111111' : '000000');
    const refused = page.waitForResponse((response) => response.url().endsWith('/2fa/verify'));
    await dialog.getByRole('button', { name: 'Подключить' }).click();
    expect((await refused).status()).toBe(400);
    expect(await messageUnder(code)).toBe('Неверный код');

    // A refusal that names no field: a toast, and nothing under the field.
    await page.route('**/authms/api/Auth/2fa/verify', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Сервис временно недоступен' }),
      }),
    );
    await code.fill(right);
    await dialog.getByRole('button', { name: 'Подключить' }).click();
    await waitForToast(page, 'Сервис временно недоступен');
    expect(await code.getAttribute('aria-invalid')).toBeNull();
    await page.unroute('**/authms/api/Auth/2fa/verify');

    await dialog.getByRole('button', { name: 'Подключить' }).click();
    await waitForToast(page, 'Аутентификатор подключён');
    expect(await toasts()).not.toContainEqual(expect.stringContaining('Неверный код'));
  });

  it('password change: a wrong current password under its field, no toast', async () => {
    const account = await newSignedInAccount(world());
    const page = await openProfile(browser, baseUrl(), account.token);
    const toasts = await recordToasts(page);
    await page
      .getByTestId('password-change')
      .getByRole('button', { name: 'Сменить пароль' })
      .click();
    const question = page.getByRole('dialog', { name: 'Вы уверены, что хотите сменить пароль?' });
    await question.getByRole('button', { name: 'Да' }).click();
    const confirmation = page.getByRole('dialog', { name: 'Подтверждение' });
    const letter = codeIn((await world().smtp.waitForLetter(account.email)).text);
    await confirmation.getByLabel('Код из письма').fill(letter);
    const form = page.getByRole('dialog', { name: 'Смена пароля' });
    await form.getByLabel('Текущий пароль').fill('Not-My-Password1');
    await form.getByLabel('Новый пароль').fill('Copper-Heron58');
    await form.getByLabel('Повторите пароль').fill('Copper-Heron58');
    browser.allowConsoleErrors(/status of 400/);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    expect(await messageUnder(form.getByLabel('Текущий пароль'))).toBe('Неверный текущий пароль');

    await form.getByLabel('Текущий пароль').fill(account.password);
    await form.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Пароль успешно изменён');
    expect(await toasts()).not.toContainEqual(expect.stringContaining('Неверный текущий пароль'));
  });

  it('«Мои данные»: a taken nickname under the field, no toast', async () => {
    const other = await newSignedInAccount(world());
    const account = await newSignedInAccount(world());
    const page = await openProfile(browser, baseUrl(), account.token);
    const toasts = await recordToasts(page);
    await page.getByRole('button', { name: 'Мои данные' }).click();
    const dialog = page.getByRole('dialog', { name: 'Мои данные' });
    const nickname = dialog.getByLabel('Никнейм');
    browser.allowConsoleErrors('409 (Conflict)');
    await nickname.fill(other.username);
    await dialog.getByLabel('Отчество').fill('Ильич');
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    expect(await messageUnder(nickname)).toBe(USERNAME_TAKEN);

    await nickname.fill(`Nick${Date.now().toString(36).slice(-6)}`);
    await dialog.getByRole('button', { name: 'Сохранить' }).click();
    await waitForToast(page, 'Данные профиля обновлены');
    expect(await toasts()).not.toContainEqual(expect.stringContaining(USERNAME_TAKEN));
  });
});
