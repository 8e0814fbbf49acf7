import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeYandex, startFakeYandex } from '../../server/test/support/fake-yandex';
import { waitForToast } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  type SignedInAccount,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import {
  addVirtualAuthenticator,
  withoutPasskeyAutofill,
} from '../test/support/e2e/passkey-helpers';

// A Yandex ID sign-in of an account whose only second factor is a passkey asks for the passkey,
// as the password sign-in does (the server's one sign-in policy). Passkeys need a domain: the
// portal is browsed as http://localhost; Chromium's virtual authenticator answers the dialogs.
let yandex: FakeYandex;
const portalEnv: Record<string, string> = {};
beforeAll(async () => {
  yandex = await startFakeYandex();
  Object.assign(portalEnv, yandex.config);
});
afterAll(async () => {
  await yandex?.close();
});

const world = setupPortalWithSmtp(portalEnv, { host: 'localhost' });
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

/** Links the Yandex id to the account through the API, as the profile's button does. */
async function linkYandex(account: SignedInAccount, yandexId: string) {
  const authorization = `Bearer ${account.token}`;
  const proof = await fetch(url('/authms/api/Auth/proof'), {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ password: account.password }),
  });
  expect(proof.status).toBe(200);
  const started = await fetch(url('/auth/yandex/getUrl'), { headers: { authorization } });
  const cookie = started.headers.get('set-cookie')!.split(';')[0]!;
  const { data } = (await started.json()) as { data: { url: string } };
  yandex.signInAs({ id: yandexId, login: 'passkey.owner', default_email: account.email });
  const authorize = await fetch(data.url, { redirect: 'manual' });
  const back = new URL(authorize.headers.get('location')!);
  const query = new URLSearchParams(back.hash.slice(1)).toString();
  const linked = await fetch(url(`/auth/yandex/callback?${query}`), {
    headers: { cookie },
    redirect: 'manual',
  });
  expect(new URL(linked.headers.get('location')!).searchParams.get('yandexLinked')).toBe('1');
}

describe('Yandex ID sign-in of an account whose second factor is a passkey', () => {
  it('shows the passkey step after the Yandex return and signs in with the passkey', async () => {
    const account = await newSignedInAccount(world());
    const yandexId = `pk${Date.now()}`;
    await linkYandex(account, yandexId);

    const page = await openSignedInPage(browser, account.token);
    await addVirtualAuthenticator(page);
    await page.goto(url('/profile'));
    await page.getByRole('heading', { level: 2, name: 'Ключи доступа' }).waitFor();
    await page.getByRole('button', { name: 'Добавить ключ' }).click();
    const dialog = page.getByRole('dialog', { name: 'Новый ключ доступа' });
    await dialog.getByLabel('Название').fill('Ноутбук');
    // The session proved its owner for the linking just now: no proof step this time.
    await dialog.getByRole('button', { name: 'Создать ключ' }).click();
    await waitForToast(page, 'Ключ доступа добавлен');

    // The login field's autofill would offer the passkey on /auth before Yandex is chosen.
    await withoutPasskeyAutofill(page);
    await page.getByRole('button', { name: 'Выйти из аккаунта' }).click();
    await page.waitForURL((address) => address.pathname === '/auth');

    const exchanges: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/auth/yandex/exchange')) exchanges.push(response.status());
    });
    yandex.signInAs({ id: yandexId, login: 'passkey.owner', default_email: account.email });
    await page.getByRole('button', { name: 'Войти с Яндекс ID' }).click();
    await page.waitForURL((address) => address.searchParams.has('yandexCode'));
    // Signed out still: the step asks for the passkey, no code field.
    await page.getByRole('heading', { level: 1, name: 'Вход через Яндекс ID' }).waitFor();
    expect(await page.getByLabel(/код/i).count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

    await page.getByRole('button', { name: 'Войти с ключом доступа' }).click();
    await page.waitForURL((address) => address.pathname === '/');
    await page.getByRole('heading', { level: 1, name: 'Главная' }).waitFor();
    expect(exchanges).toEqual([200, 200]);
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toMatch(/^[\w-]{40,}$/);
  });
});
