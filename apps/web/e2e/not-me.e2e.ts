import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { horizontalOverflow, seriousViolations, settled } from '../test/support/e2e/a11y-helpers';
import { sessionStatus, type TestAccount, waitForToast } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

const STRANGER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const NEW_PASSWORD = 'Amber-Falcon62';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** A stranger signs in with the account's password from another browser; answers the token. */
async function strangerSignsIn(account: TestAccount): Promise<string> {
  const response = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': STRANGER_AGENT },
    body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** The «Это был не я» link of the alert letter the account's mailbox received. */
async function notMeLinkOf(email: string): Promise<string> {
  for (;;) {
    const letter = await world().smtp.waitForLetter(email);
    if (!letter.subject.includes('вход с нового устройства')) continue;
    expect(letter.text).toContain('Chrome 120, Windows 10');
    const link = /Это был не я: (\S+)/.exec(letter.text)?.[1];
    if (!link) throw new Error('the alert letter has no «Это был не я» link');
    return link;
  }
}

describe('«Это был не я» from the alert letter', () => {
  it('ends every session and leads to a new password by the mailed code (light theme)', async () => {
    const account = await newSignedInAccount(world());
    const stranger = await strangerSignsIn(account);
    const link = await notMeLinkOf(account.email);
    expect(new URL(link).pathname).toBe('/not-me');

    const page = await browser.newPage({ colorScheme: 'light' });
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Это были не вы?' }).waitFor();
    // Opening the link changed nothing: the stranger is still in.
    expect(await sessionStatus(world().portal.baseUrl, stranger)).toBe(200);
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Это был не я — завершить все сеансы' }).click();
    await page.waitForURL((address) => address.pathname === '/reset-password');
    await waitForToast(page, 'Все сеансы аккаунта завершены');
    expect(await sessionStatus(world().portal.baseUrl, stranger)).toBe(401);
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(401);

    // The code step, for the account's address, with the code the action mailed.
    await page.getByLabel('Введите код').waitFor();
    expect(await page.getByText(account.email).count()).toBeGreaterThan(0);
    const letter = await world().smtp.waitForLetter(account.email);
    expect(letter.subject).toContain('код для сброса пароля');
    await page.getByLabel('Введите код').fill(codeIn(letter.text));
    await page.getByLabel('Новый пароль').fill(NEW_PASSWORD);
    await page.getByLabel('Повторите пароль').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Обновить пароль' }).click();
    await page.getByRole('heading', { name: 'Пароль обновлен' }).waitFor();
  });

  it('reads on a 375 px phone in the dark theme, and a used link says so', async () => {
    const account = await newSignedInAccount(world());
    await strangerSignsIn(account);
    const link = await notMeLinkOf(account.email);
    const page = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme: 'dark' });
    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Это были не вы?' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const overflow = await horizontalOverflow(page);
    expect(overflow.scrollWidth, overflow.sticking.join(', ')).toBeLessThanOrEqual(
      MOBILE_VIEWPORT.width,
    );
    await settled(page);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Это был не я — завершить все сеансы' }).click();
    await page.waitForURL((address) => address.pathname === '/reset-password');

    // The same link again: a clear message, nothing else happens (the browser logs the 400).
    browser.allowConsoleErrors('400 (Bad Request)');
    const again = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme: 'dark' });
    await again.goto(link);
    await again.getByRole('button', { name: 'Это был не я — завершить все сеансы' }).click();
    await again.getByRole('alert').getByText('Эта ссылка уже использована').waitFor();
    expect(new URL(again.url()).pathname).toBe('/not-me');
    await settled(again);
    expect(await seriousViolations(again)).toEqual([]);
  });

  it('a link that is not whole is refused with a clear message', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    browser.allowConsoleErrors('400 (Bad Request)');
    await page.goto(url('/not-me?token=broken'));
    await page.getByRole('button', { name: 'Это был не я — завершить все сеансы' }).click();
    await page.getByRole('alert').getByText('Ссылка недействительна').waitFor();
    await page.goto(url('/not-me'));
    await page.getByRole('alert').getByText('В ссылке нет кода').waitFor();
    expect(await page.getByRole('button', { name: /завершить все сеансы/ }).count()).toBe(0);
  });
});
