import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn } from '../../server/test/support/smtp-server';
import { postJson, signInByForm, type TestAccount } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

const NEW_PASSWORD = 'Copper-Heron58';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** A sign-in by password through the API, as another device makes it; answers its status. */
async function signInAs(account: TestAccount, password: string, userAgent = IPHONE) {
  const response = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ usernameOrEmail: account.username, password }),
  });
  return response.status;
}

const events = (page: Page) => page.getByTestId('security-event');

async function openLog(page: Page) {
  await page.goto(url('/profile/security-log'));
  await page.getByRole('heading', { level: 1, name: 'Журнал безопасности' }).waitFor();
}

describe('/profile/security-log', () => {
  it('shows what happened to the account, newest first, reached from the profile', async () => {
    const account = await newSignedInAccount(world());
    // Signed in through the form of this browser.
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await signInByForm(page, account.username, account.password);
    await page.waitForURL(url('/'));

    // Two wrong passwords from a phone, then the password changed by its mailed code.
    expect(await signInAs(account, 'Wrong-Password1')).toBe(401);
    expect(await signInAs(account, 'Wrong-Password2')).toBe(401);
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    await postJson(url('/portal/auth/password/change-code'), {}, token ?? '');
    // The form's browser was a new device: its sign-in alert came first.
    const alert = await world().smtp.waitForLetter(account.email);
    expect(alert.subject).toContain('вход с нового устройства');
    const code = codeIn((await world().smtp.waitForLetter(account.email)).text);
    await postJson(
      url('/portal/auth/password/change'),
      { oldPassword: account.password, newPassword: NEW_PASSWORD, code },
      token ?? '',
    );

    await page.goto(url('/profile'));
    await page.getByRole('link', { name: /Входы, смена пароля и другие события/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Журнал безопасности' }).waitFor();
    await expect.poll(() => events(page).count()).toBe(4);

    const texts = await events(page).allTextContents();
    expect(texts[0]).toContain('Пароль изменён');
    expect(texts[1]).toContain('Неудачные попытки входа: 2');
    // The phone's failures name its device and address.
    expect(texts[1]).toMatch(/iOS 17\.5 Mobile Safari • 127\.0\.0\.1/);
    expect(texts[2]).toContain('Вход по паролю');
    // The form's browser had not signed in before: the registration came through the API.
    expect(texts[2]).toContain('Новое устройство');
    expect(texts[3]).toContain('Вход после подтверждения почты');
    for (const text of texts) expect(text).toMatch(/\d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2}/);
    expect(await page.getByRole('button', { name: 'Показать ещё' }).count()).toBe(0);

    const back = page.getByRole('link', { name: 'Назад' });
    expect(await back.getAttribute('href')).toBe('/profile');
  });

  it('shows twenty events, then the rest under «Показать ещё»', async () => {
    const account = await newSignedInAccount(world());
    // 22 sign-ins and the registration's: 23 events.
    for (let i = 0; i < 22; i++) expect(await signInAs(account, account.password)).toBe(200);
    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    await openLog(page);
    await expect.poll(() => events(page).count()).toBe(20);

    await page.getByRole('button', { name: 'Показать ещё' }).click();
    await expect.poll(() => events(page).count()).toBe(23);
    await page.getByRole('button', { name: 'Показать ещё' }).waitFor({ state: 'detached' });
    const ids = await events(page).evaluateAll((rows) => rows.map((row) => row.textContent));
    expect(ids.at(-1)).toContain('Вход после подтверждения почты');
  });

  it('reads on a 375 px phone in the dark theme, and says so when there is nothing yet', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({
      viewport: MOBILE_VIEWPORT,
      colorScheme: 'dark',
      localStorage: { access_token: account.token },
    });
    await openLog(page);
    await expect.poll(() => events(page).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      MOBILE_VIEWPORT.width,
    );

    // A log with nothing in it (every real account has its first sign-in, so the answer is made).
    await page.route('**/authms/api/Auth/security-log**', (route) =>
      route.fulfill({ json: { data: [], nextCursor: null } }),
    );
    await openLog(page);
    await page.getByText('Событий пока нет').waitFor();
    expect(await events(page).count()).toBe(0);
  });
});
