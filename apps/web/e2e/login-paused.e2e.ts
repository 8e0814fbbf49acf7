import { describe, expect, it } from 'vitest';
import { signInByForm } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

// The account lock says what happened: after ten wrong passwords the sign-in page tells that the
// login waits, for how many minutes, and leads to a new password; the owner gets one letter.
const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** One wrong password through the API; answers the status. */
async function wrongPassword(login: string, password: string): Promise<number> {
  const response = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ usernameOrEmail: login, password: `${password}x` }),
  });
  return response.status;
}

describe('a paused login', () => {
  it('shows the wait in minutes and the recovery link, which opens the reset page', async () => {
    const account = await newSignedInAccount(world());
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await wrongPassword(account.email, account.password)).toBe(401);
    }
    const letter = await world().smtp.waitForLetter(account.email);
    expect(letter.subject).toMatch(/вход в аккаунт приостановлен$/);
    expect(letter.text).toContain('/reset-password');

    const page = await browser.newPage();
    browser.allowConsoleErrors(/status of 429/);
    await page.goto(url('/auth'));
    await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
    // Even the right password waits.
    await signInByForm(page, account.username, account.password);

    const notice = page.getByRole('alert').filter({ hasText: 'приостановлен' });
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'Вход для этого логина приостановлен на 1 мин. из-за неверных попыток. Забыли пароль? Восстановить пароль',
    );
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

    await notice.getByRole('link', { name: 'Восстановить пароль' }).click();
    await page.waitForURL((address) => address.pathname === '/reset-password');
    await page.getByRole('heading', { level: 1, name: 'Обновление пароля' }).waitFor();
  });
});
