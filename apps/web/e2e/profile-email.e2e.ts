import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { createSignedInAccount, waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { setupPortalWithAccount } from '../test/support/e2e/fixtures';
import { openProfile, userOf } from '../test/support/e2e/profile-helpers';

// Every letter goes through a real SMTP exchange with the local server of the fixture.
const env = setupPortalWithAccount();
const browser = setupBrowser();

describe('e-mail change', () => {
  it('changes the address through both codes, end to end', async () => {
    const { portal, smtp } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const newEmail = `moved.${account.username}@example.org`;
    const page = await openProfile(browser, portal.baseUrl, account.token);

    await page.getByRole('button', { name: 'Изменить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(account.email).waitFor();
    await dialog.getByRole('button', { name: 'Отправить код' }).click();
    await waitForToast(page, 'Код отправлен на текущую почту');

    // A wrong code: red boxes and 'Неверный код', nothing moves on.
    const currentCode = codeIn((await smtp.waitForLetter(account.email)).text);
    const wrong = currentCode === '000000' ? '111111' : '000000';
    browser.allowConsoleErrors('400 (Bad Request)');
    await dialog.getByLabel('Код подтверждения').fill(wrong);
    await dialog.getByText('Неверный код').waitFor();

    await dialog.getByLabel('Код подтверждения').fill(currentCode);
    await page.getByRole('dialog', { name: 'Новая почта' }).waitFor();

    await dialog.getByLabel('Новая почта').fill('not an address');
    await dialog.getByRole('button', { name: 'Получить код' }).click();
    await dialog.getByText('Неверная почта').waitFor();

    await dialog.getByLabel('Новая почта').fill(newEmail);
    await dialog.getByRole('button', { name: 'Получить код' }).click();
    await page.getByRole('dialog', { name: 'Код с новой почты' }).waitFor();
    await dialog.getByText(newEmail).waitFor();
    expect((await userOf(portal.baseUrl, account.token)).email).toBe(account.email);

    const newCode = codeIn((await smtp.waitForLetter(newEmail)).text);
    await dialog.getByLabel('Код подтверждения').fill(newCode);
    await dialog.getByText('Почта обновлена').waitFor();
    await dialog.getByRole('button', { name: 'Готово' }).click();
    await dialog.waitFor({ state: 'detached' });

    await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(newEmail);
    expect((await userOf(portal.baseUrl, account.token)).email).toBe(newEmail);
    const notice = await smtp.waitForLetter(account.email);
    expect(notice.subject).toContain('почта аккаунта изменена');
  });

  it('refuses an address of another account under the field once its code is entered', async () => {
    const { portal, smtp, account: other } = env();
    const account = await createSignedInAccount(portal.baseUrl, smtp);
    const page = await openProfile(browser, portal.baseUrl, account.token);
    await page.getByRole('button', { name: 'Изменить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Отправить код' }).click();
    const code = codeIn((await smtp.waitForLetter(account.email)).text);
    await dialog.getByLabel('Код подтверждения').fill(code);
    await page.getByRole('dialog', { name: 'Новая почта' }).waitFor();

    // Taken or not, the address gets a code: the step tells nobody which addresses exist.
    await dialog.getByLabel('Новая почта').fill(other.email);
    await dialog.getByRole('button', { name: 'Получить код' }).click();
    await page.getByRole('dialog', { name: 'Код с новой почты' }).waitFor();
    const letter = await smtp.waitForLetter(other.email);
    expect(letter.subject).toContain('попытка указать вашу почту');

    browser.allowConsoleErrors('409 (Conflict)');
    await dialog.getByLabel('Код подтверждения').fill(codeIn(letter.text));
    await page.getByRole('dialog', { name: 'Новая почта' }).waitFor();
    await dialog.getByText('Эта почта уже используется другим аккаунтом').waitFor();
    expect(await dialog.getByLabel('Новая почта').inputValue()).toBe(other.email);
    expect((await userOf(portal.baseUrl, account.token)).email).toBe(account.email);
  });
});
