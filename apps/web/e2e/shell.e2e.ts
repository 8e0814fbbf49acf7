import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { postJson } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, type NewPageOptions, setupBrowser } from '../test/support/e2e/browser';
import { openSignedInPage, setupPortalWithAccount } from '../test/support/e2e/fixtures';

// Settings the server injects into index.html; the links below must carry them.
const SUPPORT_URL = 'https://support.e2e.example/chat';
const HOSTING_URL = 'https://hosting.e2e.example/';
const PRIVACY_URL = 'https://hosting.e2e.example/privacy';

const world = setupPortalWithAccount({
  SUPPORT_URL,
  HOSTING_URL,
  PRIVACY_URL,
  BRAND_NAME: 'GameHost',
});
const browser = setupBrowser();

const portal = () => world().portal;
const url = (pathname: string) => `${portal().baseUrl}${pathname}`;
const signedInPage = (options?: NewPageOptions) =>
  openSignedInPage(browser, world().account.token, options);
const pathOf = (page: Page) => new URL(page.url()).pathname;
const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);

async function heading(page: Page, name: string) {
  const locator = page.getByRole('heading', { level: 1, name });
  await locator.waitFor();
  return locator;
}

describe('route guard', () => {
  it.each(['/', '/profile', '/profile/devices', '/wallet/history'])(
    'sends an anonymous visitor from %s to /auth',
    async (pathname) => {
      const page = await browser.newPage();
      await page.goto(url(pathname));
      await page.waitForURL((address) => address.pathname === '/auth');
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(pathOf(page)).toBe('/auth');
    },
  );

  it('lets a visitor open the public pages', async () => {
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await heading(page, 'Вход в личный кабинет');
    await page.goto(url('/reset-password'));
    await heading(page, 'Обновление пароля');
    expect(pathOf(page)).toBe('/reset-password');
  });

  it('sends a signed-in user from /auth to /', async () => {
    const page = await signedInPage();
    await page.goto(url('/auth'));
    await page.waitForURL((address) => address.pathname === '/');
    await heading(page, 'Главная');
  });

  it('keeps a signed-in user in their own session when /auth brings another live token', async () => {
    const { account } = world();
    const second = (await postJson(url('/authms/api/Auth/login'), {
      usernameOrEmail: account.email,
      password: account.password,
    })) as { token: string };
    const page = await signedInPage();
    await page.goto(url(`/auth?token=${encodeURIComponent(second.token)}`));
    // `token` is no work for /auth any more (docs/decisions/0009): the guard sends the user home.
    await page.waitForURL((address) => address.pathname === '/');
    await heading(page, 'Главная');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBe(account.token);
  });
});

describe('a page still loading when the visitor moves on', () => {
  it('Back before the next page arrived shows the page the visitor went back to, and Forward the other', async () => {
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await heading(page, 'Вход в личный кабинет');
    // The reset page's code is held on its way, so that Back comes while it is still loading.
    let release = () => {};
    const requested = new Promise<void>((arrived) => {
      void page.route(/\/assets\/reset-password-page-[^/]*\.js$/, async (route) => {
        arrived();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        await route.continue();
      });
    });
    await page.getByRole('link', { name: 'Забыли пароль?' }).click();
    await requested;
    await page.goBack();
    await page.waitForURL((address) => address.pathname === '/auth');
    release();
    await heading(page, 'Вход в личный кабинет');

    await page.goForward();
    await heading(page, 'Обновление пароля');
  });

  it('the same for a page outside the frames (the 404 page)', async () => {
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await heading(page, 'Вход в личный кабинет');
    let release = () => {};
    const requested = new Promise<void>((arrived) => {
      void page.route(/\/assets\/not-found-page-[^/]*\.js$/, async (route) => {
        arrived();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        await route.continue();
      });
    });
    // An address the app does not know, reached inside the app (as a link would).
    await page.evaluate(() => {
      history.pushState(null, '', '/no-such-page');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await requested;
    await page.goBack();
    await page.waitForURL((address) => address.pathname === '/auth');
    release();
    await heading(page, 'Вход в личный кабинет');
  });
});

describe('signed-in routes', () => {
  it.each([
    ['/', 'Главная'],
    ['/profile', 'Личные данные'],
    ['/profile/devices', 'Привязанные устройства'],
    ['/wallet/history', 'История начислений и списаний'],
  ])('%s renders "%s" inside the app frame', async (pathname, title) => {
    const page = await signedInPage();
    await page.goto(url(pathname));
    await heading(page, title);
    expect(pathOf(page)).toBe(pathname);
    expect(await page.getByRole('complementary', { name: 'Боковая панель' }).isVisible()).toBe(
      true,
    );
  });

  it('fetches the current user with the stored token at start', async () => {
    const page = await signedInPage();
    const userCall = page.waitForResponse('**/authms/api/Auth/user');
    await page.goto(url('/'));
    const response = await userCall;
    expect(response.request().headers().authorization).toBe(`Bearer ${world().account.token}`);
    expect(response.status()).toBe(200);
    expect(((await response.json()) as { email: string }).email).toBe(world().account.email);
    await heading(page, 'Главная');
  });

  it('drops a token the server refuses and sends the visitor to /auth', async () => {
    const page = await browser.newPage({ localStorage: { access_token: 'revoked-token' } });
    // Chromium logs every failed request; these 401s are the point of the test.
    browser.allowConsoleErrors('401 (Unauthorized)');
    const userCall = page.waitForResponse('**/authms/api/Auth/user');
    await page.goto(url('/profile'));
    expect((await userCall).status()).toBe(401);
    await page.waitForURL((address) => address.pathname === '/auth');
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  it('the sidebar links move between pages and mark the current one', async () => {
    const page = await signedInPage();
    await page.goto(url('/'));
    const sidebar = page.getByRole('complementary', { name: 'Боковая панель' });
    await sidebar.getByRole('link', { name: 'Личные данные' }).click();
    await heading(page, 'Личные данные');
    expect(pathOf(page)).toBe('/profile');
    const current = sidebar.locator('a[aria-current="page"]');
    expect(await current.textContent()).toBe('Личные данные');
    await sidebar.getByRole('link', { name: 'Главная' }).click();
    await heading(page, 'Главная');
    expect(pathOf(page)).toBe('/');
  });

  it('external links come from the server settings; support opens in a new tab', async () => {
    const page = await signedInPage();
    await page.goto(url('/'));
    const sidebar = page.getByRole('complementary', { name: 'Боковая панель' });
    const support = sidebar.getByRole('link', { name: 'Поддержка' });
    await support.waitFor();
    expect(await support.getAttribute('href')).toBe(SUPPORT_URL);
    expect(await support.getAttribute('target')).toBe('_blank');
    expect(await support.getAttribute('rel')).toContain('noopener');
    const hosting = sidebar.getByRole('link', { name: 'Хостинг' });
    expect(await hosting.getAttribute('href')).toBe(HOSTING_URL);
    const privacy = sidebar.getByRole('link', { name: 'Политика конфиденциальности' });
    expect(await privacy.getAttribute('href')).toBe(PRIVACY_URL);
    expect(await sidebar.getByText('© 2025 GameHost').isVisible()).toBe(true);
  });
});

describe('theme', () => {
  it.each(['dark', 'light', 'no-preference'] as const)(
    'is dark until the person picks a theme, whatever the system prefers (%s)',
    async (colorScheme) => {
      const page = await browser.newPage({ colorScheme, theme: 'none' });
      await page.goto(url('/auth'));
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
      expect(await themeOf(page)).toBe('dark');
    },
  );

  it('keeps the picked theme over the system’s', async () => {
    const page = await browser.newPage({ colorScheme: 'dark', theme: 'light' });
    await page.goto(url('/auth'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await themeOf(page)).toBe('light');
  });

  it('the sidebar switch changes the theme and the choice survives a reload', async () => {
    const page = await signedInPage({ colorScheme: 'dark' });
    await page.goto(url('/'));
    const toggle = page.getByRole('switch', { name: 'Тёмная тема' });
    await toggle.waitFor();
    expect(await themeOf(page)).toBe('dark');
    expect(await toggle.getAttribute('aria-checked')).toBe('true');

    await toggle.click();
    await expect.poll(() => themeOf(page)).toBe('light');
    expect(await toggle.getAttribute('aria-checked')).toBe('false');

    await page.reload();
    await heading(page, 'Главная');
    expect(await themeOf(page)).toBe('light');
    expect(
      await page.getByRole('switch', { name: 'Тёмная тема' }).getAttribute('aria-checked'),
    ).toBe('false');
    // The light palette is the one painted (the body fades between themes, so wait for it).
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor))
      .toBe('rgb(243, 245, 250)');
  });
});

describe('layout by screen width', () => {
  it('desktop shows the sidebar and no bottom bar', async () => {
    const page = await signedInPage();
    await page.goto(url('/'));
    await heading(page, 'Главная');
    expect(await page.getByRole('complementary', { name: 'Боковая панель' }).isVisible()).toBe(
      true,
    );
    expect(await page.getByRole('navigation', { name: 'Нижнее меню' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Открыть меню' }).isVisible()).toBe(false);
  });

  it('375 px shows the bottom bar with its four entries and no sidebar', async () => {
    const page = await signedInPage({ viewport: MOBILE_VIEWPORT });
    await page.goto(url('/'));
    await heading(page, 'Главная');
    const bottomBar = page.getByRole('navigation', { name: 'Нижнее меню' });
    expect(await bottomBar.isVisible()).toBe(true);
    expect(await bottomBar.getByRole('link').allTextContents()).toEqual([
      'Главная',
      'Личные данные',
      'Поддержка',
      'Хостинг',
    ]);
    expect(await page.getByRole('complementary', { name: 'Боковая панель' }).isVisible()).toBe(
      false,
    );
    // The bar sits at the bottom edge of the screen.
    const box = await bottomBar.boundingBox();
    expect(box && Math.round(box.y + box.height)).toBe(MOBILE_VIEWPORT.height);

    await bottomBar.getByRole('link', { name: 'Личные данные' }).click();
    await heading(page, 'Личные данные');
    expect(pathOf(page)).toBe('/profile');
  });

  it('the burger opens the theme panel on mobile', async () => {
    const page = await signedInPage({
      viewport: MOBILE_VIEWPORT,
      colorScheme: 'dark',
    });
    await page.goto(url('/'));
    await page.getByRole('button', { name: 'Открыть меню' }).click();
    const light = page.getByRole('button', { name: 'Светлая' });
    await light.click();
    await expect.poll(() => themeOf(page)).toBe('light');
    expect(await light.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Открыть меню' }).waitFor();
    expect(await light.isVisible()).toBe(false);
  });
});

describe('404 page', () => {
  it('shows its text, the illustration of the theme and a link home', async () => {
    const page = await browser.newPage({ colorScheme: 'dark' });
    await page.goto(url('/no/such/page'));
    await heading(page, 'Упс! Кажется, вы попали на несуществующую страницу');
    const illustrations = page.getByRole('img', { name: 'Сервер отключён', includeHidden: true });
    expect(await illustrations.count()).toBe(2);
    const visible = await illustrations.evaluateAll(
      (nodes) => nodes.filter((node) => node.getBoundingClientRect().width > 0).length,
    );
    expect(visible).toBe(1);

    const link = page.getByRole('link', { name: 'Вернуться на главную' });
    expect(await link.getAttribute('href')).toBe('/');
    await link.click();
    // Anonymous: home is protected, so the guard takes over.
    await page.waitForURL((address) => address.pathname === '/auth');
  });

  it('draws the light illustration in the light theme', async () => {
    const page = await browser.newPage({ colorScheme: 'light' });
    await page.goto(url('/missing'));
    await heading(page, 'Упс! Кажется, вы попали на несуществующую страницу');
    const visibleFill = await page
      .getByRole('img', { name: 'Сервер отключён', includeHidden: true })
      .evaluateAll((nodes) =>
        nodes
          .filter((node) => node.getBoundingClientRect().width > 0)
          .map((node) => node.querySelector('linearGradient')?.id ?? ''),
      );
    expect(visibleFill).toEqual(['nf-light-sky']);
  });
});

describe('/oauth', () => {
  it('forwards the URL fragment to the API callback as a query string', async () => {
    const page = await browser.newPage();
    let forwarded: URL | undefined;
    await page.route('**/auth/yandex/callback**', (route) => {
      forwarded = new URL(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/plain', body: 'ok' });
    });
    await page.goto(url('/oauth#access_token=abc%20def&token_type=bearer&state=s-1'));
    await page.waitForURL((address) => address.pathname === '/auth/yandex/callback');
    expect(forwarded?.origin).toBe(portal().baseUrl);
    expect(Object.fromEntries(forwarded?.searchParams ?? [])).toEqual({
      access_token: 'abc def',
      token_type: 'bearer',
      state: 's-1',
    });
  });
});
