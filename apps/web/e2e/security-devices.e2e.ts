import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sessionStatus, type TestAccount } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** Another device signs in to the same account: a session of its own, with its user agent. */
async function signInElsewhere(account: TestAccount, userAgent: string): Promise<string> {
  const response = await fetch(url('/authms/api/Auth/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ usernameOrEmail: account.username, password: account.password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

async function openDevicesPage(token: string): Promise<Page> {
  const page = await browser.newPage({ localStorage: { access_token: token } });
  await page.goto(url('/profile/devices'));
  await page.getByRole('heading', { level: 1, name: 'Привязанные устройства' }).waitFor();
  return page;
}

const rows = (page: Page) => page.getByTestId('device-row');

describe('/profile/devices', () => {
  it('shows four skeleton rows while loading, then one row per device', async () => {
    const account = await newSignedInAccount(world());
    await signInElsewhere(account, IPHONE);
    await signInElsewhere(account, WINDOWS);

    const page = await browser.newPage({ localStorage: { access_token: account.token } });
    // Hold the list back until the placeholders have been seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/authms/api/Auth/devices', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(url('/profile/devices'));
    await page.getByRole('heading', { level: 2, name: 'Устройства' }).waitFor();
    await expect.poll(() => page.getByTestId('device-skeleton').count()).toBe(4);
    expect(await rows(page).count()).toBe(0);
    release();

    await expect.poll(() => rows(page).count()).toBe(3);
    expect(await page.getByTestId('device-skeleton').count()).toBe(0);

    const phone = rows(page).filter({ hasText: 'iOS' });
    // A phone has a device type: its address follows a bullet.
    expect(await phone.textContent()).toMatch(/iOS 17\.5 Mobile Safari • 127\.0\.0\.1/);
    expect(await phone.textContent()).toMatch(/Привязан \d{1,2} [а-я]+ \d{4} г\. в \d{2}:\d{2}/);
    // A desktop has none: no address.
    const laptop = rows(page).filter({ hasText: 'Windows' });
    expect(await laptop.textContent()).toContain('Windows 10 Chrome');
    expect(await laptop.textContent()).not.toContain('127.0.0.1');

    const back = page.getByRole('link', { name: 'Назад' });
    expect(await back.getAttribute('href')).toBe('/profile');
  });

  it("ends a second device's session from the dialog; that device's next call is refused", async () => {
    const account = await newSignedInAccount(world());
    const phoneToken = await signInElsewhere(account, IPHONE);
    expect(await sessionStatus(world().portal.baseUrl, phoneToken)).toBe(200);

    const page = await openDevicesPage(account.token);
    await expect.poll(() => rows(page).count()).toBe(2);
    const phone = rows(page).filter({ hasText: 'iOS' });
    await phone.getByRole('button', { name: /Выйти/ }).click();

    const dialog = page.getByRole('dialog', { name: 'Точно выйти?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('iOS 17.5 Mobile Safari • 127.0.0.1');
    await dialog.getByRole('button', { name: 'Выйти', exact: true }).click();

    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).filter({ hasText: 'iOS' }).count()).toBe(0);
    expect(await sessionStatus(world().portal.baseUrl, phoneToken)).toBe(401);
    // This device is still signed in and stays on the page.
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/profile/devices');
  });

  it('the dialog can be cancelled: nothing ends', async () => {
    const account = await newSignedInAccount(world());
    const phoneToken = await signInElsewhere(account, IPHONE);
    const page = await openDevicesPage(account.token);
    await expect.poll(() => rows(page).count()).toBe(2);
    await rows(page).filter({ hasText: 'iOS' }).getByRole('button', { name: /Выйти/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Точно выйти?' });
    await dialog.getByRole('button', { name: 'Отмена' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await rows(page).count()).toBe(2);
    expect(await sessionStatus(world().portal.baseUrl, phoneToken)).toBe(200);
  });

  it("ending this device's own session signs the user out to /auth", async () => {
    const account = await newSignedInAccount(world());
    const page = await openDevicesPage(account.token);
    await expect.poll(() => rows(page).count()).toBe(1);
    await rows(page).first().getByRole('button', { name: /Выйти/ }).click();
    await page
      .getByRole('dialog', { name: 'Точно выйти?' })
      .getByRole('button', { name: 'Выйти', exact: true })
      .click();
    await page.waitForURL((address) => address.pathname === '/auth');
    await page.getByRole('heading', { level: 1, name: 'Вход в личный кабинет' }).waitFor();
    // Signed out on purpose, like «Выйти из аккаунта»: no notice of an ended session.
    expect(await page.getByText('Сеанс завершён. Войдите снова.').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect(await sessionStatus(world().portal.baseUrl, account.token)).toBe(401);
  });
});
