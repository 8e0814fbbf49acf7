import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInByForm, waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import { failScripts } from '../test/support/e2e/page-helpers';

// When the network fails: a first load that takes long shows the brand's loader, and a call that
// gets no answer says so in Russian; once the connection is back the same button works.
const NO_CONNECTION = 'Нет соединения с сервером. Проверьте интернет и повторите.';

const world = setupPortalWithSmtp();
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

describe.each(['light', 'dark'] as const)('%s theme', (theme) => {
  it('a slow first load shows the loader, not a blank page, until the app is in', async () => {
    const page = await browser.newPage({ colorScheme: theme });
    // The app's scripts are held back, as on a network that barely moves.
    const held: Route[] = [];
    let isHolding = true;
    await page.route('**/assets/*.js', (route) => {
      if (isHolding) held.push(route);
      else void route.continue();
    });
    await page.goto(url('/auth'), { waitUntil: 'commit' });
    const loader = page.locator('.boot-loader');
    await expect
      .poll(() => loader.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('1');
    expect(await loader.getByText('Загрузка…').count()).toBe(1);

    isHolding = false;
    for (const route of held.splice(0)) await route.continue();
    await page.getByLabel('Логин или почта').waitFor();
    expect(await loader.count()).toBe(0);
  });

  it('a sign-in with the network down says there is no connection; back online, «Войти» works', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage({ colorScheme: theme });
    await page.goto(url('/auth'));
    await page.getByLabel('Логин или почта').waitFor();
    // The schemas load with the first keystroke: type while online, then lose the network.
    await page.getByLabel('Логин или почта').fill(account.username);
    await page.getByLabel('Пароль', { exact: true }).fill(account.password);
    await page.context().setOffline(true);
    browser.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/, /Failed to fetch/);
    await page.getByRole('button', { name: 'Войти', exact: true }).click();
    await page.getByRole('status').filter({ hasText: NO_CONNECTION }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/auth');
    expect(await page.getByText('Network Error').count()).toBe(0);

    await page.context().setOffline(false);
    await signInByForm(page, account.username, account.password);
    await page.waitForURL((address) => address.pathname === '/');
    // The toasts did not stop working for the visit: the library loads now that it can.
    await waitForToast(page, 'Успешный вход');
  });

  it('a page whose code fails to load says «Нет соединения» with «Повторить», which then works', async () => {
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token, { colorScheme: theme });
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    // The profile page's file fails to come, as on a connection that drops mid-way.
    const restore = await failScripts(browser, page, /profile-page/);
    await page.getByRole('link', { name: 'Личные данные' }).first().click();
    const failed = page.getByRole('alert').filter({ hasText: 'Нет соединения' });
    await failed.waitFor();
    // Still failing: «Повторить» tries again and says the same; never a button that does nothing.
    const tried = page.waitForRequest(/profile-page-/);
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await tried;
    await failed.waitFor();

    await restore();
    await failed.getByRole('button', { name: 'Повторить' }).click();
    await page.getByRole('heading', { level: 1, name: 'Личные данные' }).waitFor();
    expect(await failed.count()).toBe(0);
  });

  it('a page that could not load while offline comes by itself once the browser is back online', async () => {
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token, { colorScheme: theme });
    await page.goto(url('/'));
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    await page.context().setOffline(true);
    browser.allowConsoleErrors(/ERR_INTERNET_DISCONNECTED/, /dynamically imported module/);
    await page.getByRole('link', { name: 'Личные данные' }).first().click();
    await page.getByRole('alert').filter({ hasText: 'Нет соединения' }).waitFor();
    await page.context().setOffline(false);
    await page.getByRole('heading', { level: 1, name: 'Личные данные' }).waitFor();
    // Its stylesheet, lost with its code, came again with it: the page is not left unstyled.
    const unstyled = () =>
      page.evaluate(
        () =>
          // A stylesheet that failed has no rules to read (Chromium throws on reading them).
          [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
            (link) => {
              try {
                return !link.sheet?.cssRules.length;
              } catch {
                return true;
              }
            },
          ).length,
      );
    expect(await unstyled()).toBe(0);
  });
});

describe('a request with no answer, and a slow network', () => {
  it('a sign-in whose answer never comes says so after 30 s, is not sent again, and «Войти» then works', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    // The page's clock is the test's: the 30 s of waiting pass at once.
    await page.clock.install();
    const sent: string[] = [];
    let isHanging = true;
    await page.route('**/authms/api/Auth/login', (route) => {
      sent.push(route.request().method());
      // The first answer never comes; the person's own second press is answered.
      if (!isHanging) void route.continue();
    });
    await page.goto(url('/auth'));
    await signInByForm(page, account.username, account.password);
    await expect.poll(() => sent.length).toBe(1);
    const button = page.getByRole('button', { name: 'Войти', exact: true });
    expect(await button.getAttribute('aria-busy')).toBe('true');

    await page.clock.fastForward(31_000);
    await page.getByText(NO_CONNECTION).first().waitFor();
    expect(await button.getAttribute('aria-busy')).toBe('false');
    // A change is never sent again unasked: it may have reached the server.
    expect(sent).toEqual(['POST']);

    isHanging = false;
    await button.click();
    await page.waitForURL((address) => address.pathname === '/');
    expect(sent).toEqual(['POST', 'POST']);
  });

  it('a read with no answer is asked once more, then the page says so', async () => {
    const account = await newSignedInAccount(world());
    const page = await openSignedInPage(browser, account.token);
    await page.clock.install();
    // The page reads the list and the chart's entries: each is counted on its own.
    const asked = new Map<string, number>();
    await page.route('**/payments/payments/user*', (route) => {
      const address = route.request().url();
      asked.set(address, (asked.get(address) ?? 0) + 1);
    });
    const counts = () => [...asked.values()];
    await page.goto(url('/wallet/history'));
    // The page's code and its reads come after the load: seconds on a busy machine.
    await expect.poll(counts, { timeout: 10_000 }).toEqual([1, 1]);
    await page.clock.fastForward(31_000);
    // A read changes nothing: it is asked again after a second.
    await page.clock.fastForward(1_000);
    await expect.poll(counts, { timeout: 10_000 }).toEqual([2, 2]);
    await page.clock.fastForward(31_000);
    await page.getByText(NO_CONNECTION).first().waitFor();
    expect(counts()).toEqual([2, 2]);
  });

  it('with 5 s of latency, a double press signs in once and the pages fill in', async () => {
    const account = await newSignedInAccount(world());
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await page.getByLabel('Логин или почта').waitFor();
    await page.getByLabel('Логин или почта').fill(account.username);
    await page.getByLabel('Пароль', { exact: true }).fill(account.password);
    // Chromium's own network throttling: every request, the app's files too, waits 5 s.
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 5_000,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const logins: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/Auth/login')) logins.push(request.method());
    });
    const button = page.getByRole('button', { name: 'Войти', exact: true });
    await button.click();
    // The second press finds the button busy: the sign-in is sent once.
    await button.click({ force: true });
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor({ timeout: 40_000 });
    expect(logins).toEqual(['POST']);
    await expect
      .poll(() => page.getByTestId('balance-value').textContent(), { timeout: 40_000 })
      .toMatch(/0,00\s₽/);

    await page.getByRole('link', { name: 'История операций' }).click();
    await page.getByText('Операций пока нет').waitFor({ timeout: 40_000 });
  }, 120_000);
});
