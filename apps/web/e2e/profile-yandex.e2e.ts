import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeYandex, startFakeYandex } from '../../server/test/fake-yandex';
import { setupBrowser } from './browser';
import { setupPortalWithAccount } from './fixtures';
import { userOf } from './profile-helpers';

// Yandex ID is a local stand-in speaking its implicit flow; filled in before the portal starts.
let yandex: FakeYandex;
const portalEnv: Record<string, string> = {};
beforeAll(async () => {
  yandex = await startFakeYandex();
  portalEnv.YANDEX_CLIENT_ID = yandex.clientId;
  portalEnv.YANDEX_AUTHORIZE_URL = yandex.authorizeUrl;
  portalEnv.YANDEX_USERINFO_URL = yandex.userInfoUrl;
});
afterAll(async () => {
  await yandex?.close();
});

const env = setupPortalWithAccount(portalEnv);
const browser = setupBrowser();

/** Clicks «Войти с Яндекс ID» on the login tab: the portal's authorize address, then Yandex. */
async function startYandexSignIn(page: import('playwright-core').Page) {
  await page.getByRole('button', { name: 'Войти с Яндекс ID' }).click();
}

describe('Yandex ID', () => {
  it('signs in a new user through the stand-in: /oauth → callback → /auth?token → home', async () => {
    const { portal } = env();
    const email = `ya.${Date.now().toString(36)}@yandex.ru`;
    yandex.signInAs({
      id: String(Date.now()),
      login: 'yandex.player',
      default_email: email,
      first_name: 'Алексей',
      last_name: 'Смирнов',
    });
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);

    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('access_token'));
    expect(token).toMatch(/^[\w-]{40,}$/);
    expect(await userOf(portal.baseUrl, token ?? '')).toMatchObject({
      email,
      userName: 'yandex.player',
      firstName: 'Алексей',
    });
    // The token travelled in the URL once; the page does not keep it there.
    expect(page.url()).not.toContain('token=');
  });

  it('does not take over an existing account by its e-mail', async () => {
    const { portal, account } = env();
    yandex.signInAs({ id: `x${Date.now()}`, login: 'intruder', default_email: account.email });
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);
    await page.waitForURL((address) => address.searchParams.has('yandexError'));
    expect(new URL(page.url()).searchParams.get('yandexError')).toMatch(
      /^Аккаунт с этой почтой уже есть/,
    );
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect((await userOf(portal.baseUrl, account.token)).yandexId).toBeNull();
  });

  it('comes back to /auth with the reason when the user cancels at Yandex', async () => {
    const { portal } = env();
    yandex.denyNext();
    const page = await browser.newPage();
    await page.goto(`${portal.baseUrl}/auth`);
    await page.getByRole('button', { name: 'Войти', exact: true }).waitFor();
    await startYandexSignIn(page);
    await page.waitForURL((address) => address.searchParams.has('yandexError'));
    expect(new URL(page.url()).searchParams.get('yandexError')).toBe(
      'Вход через Яндекс ID отменён',
    );
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });
});
