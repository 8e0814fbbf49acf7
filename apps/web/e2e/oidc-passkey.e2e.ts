import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeYandex, startFakeYandex } from '../../server/test/support/fake-yandex';
import { codeIn } from '../../server/test/support/smtp-server';
import {
  postJson,
  signInByForm,
  startSiblingSite,
  waitForToast,
} from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  newSignedInAccount,
  openSignedInPage,
  setupPortalWithSmtp,
} from '../test/support/e2e/fixtures';
import {
  addVirtualAuthenticator,
  withoutPasskeyAutofill,
} from '../test/support/e2e/passkey-helpers';
import { userOf } from '../test/support/e2e/profile-helpers';

// A brand site (openid-client) signs in a person whose way in is a passkey: the browser goes to
// the portal's /auth, Chromium's virtual authenticator answers the passkey dialog, and the site
// gets an ID token whose `amr` says how (modules/oidc/interactions.ts `amrForSites`: a passkey
// alone verified its user, `hwk` and `mfa`; a passkey after the password, `pwd` and `hwk`).
// Passkeys need a domain: the portal is browsed as http://localhost (portal.ts, `host`).
let site: Awaited<ReturnType<typeof startSiblingSite>>;
let yandex: FakeYandex;
const env: Record<string, string> = {};
beforeAll(async () => {
  site = await startSiblingSite();
  yandex = await startFakeYandex();
  Object.assign(env, yandex.config, {
    OIDC_CLIENTS: JSON.stringify([
      {
        client_id: 'hosting',
        token_endpoint_auth_method: 'none',
        redirect_uris: [`${site.origin}/callback`],
      },
    ]),
  });
});
afterAll(async () => {
  await site?.close();
  await yandex?.close();
});
const world = setupPortalWithSmtp(env, { host: 'localhost' });
const browser = setupBrowser();
const url = (pathname: string) => `${world().portal.baseUrl}${pathname}`;

const TWO_FACTORS = 'urn:portal:acr:2fa';

/** The site as openid-client sees the provider. */
function siteConfig() {
  return client.discovery(new URL(world().portal.baseUrl), 'hosting', undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}

/**
 * The site sends `page` to the provider (authorization code with PKCE, `prompt` when given) and,
 * once `signIn` has done what the portal asks, exchanges the code at its callback. Answers the ID
 * token's claims, validated by openid-client.
 */
async function signInToSite(
  page: Page,
  signIn: () => Promise<void>,
  options: { prompt?: 'login' } = {},
) {
  const config = await siteConfig();
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorization = client.buildAuthorizationUrl(config, {
    redirect_uri: `${site.origin}/callback`,
    scope: 'openid profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...options,
  });
  await page.goto(authorization.href);
  await page.waitForURL((address) => address.pathname === '/auth');
  expect(new URL(page.url()).searchParams.get('interaction')).toBeTruthy();
  await signIn();
  await page.waitForURL(
    (address) => address.origin === site.origin && address.pathname === '/callback',
  );
  const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  return tokens.claims()!;
}

/** A virtual authenticator for this page, and how many times its one passkey signed. */
async function signatureCounter(page: Page) {
  const authenticator = await addVirtualAuthenticator(page);
  /** The authenticator's own count. */
  return async () => {
    const credentials = await authenticator.credentials();
    expect(credentials).toHaveLength(1);
    return credentials[0]!.signCount;
  };
}

/**
 * Adds a passkey in the profile (the session proved its owner just before, so no proof step),
 * then signs out of the portal. From then on the browser offers no passkey autofill: the login
 * field's conditional request would sign in by itself when focused, where the test presses the
 * button.
 */
async function addPasskeyAndSignOut(page: Page) {
  const countSignatures = await signatureCounter(page);
  await page.goto(url('/profile'));
  await page.getByRole('heading', { level: 2, name: 'Ключи доступа' }).waitFor();
  await page.getByRole('button', { name: 'Добавить ключ' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый ключ доступа' });
  await dialog.getByLabel('Название').fill('Ноутбук');
  await dialog.getByRole('button', { name: 'Создать ключ' }).click();
  await waitForToast(page, 'Ключ доступа добавлен');
  await dialog.waitFor({ state: 'detached' });
  await withoutPasskeyAutofill(page);
  await page.getByRole('button', { name: 'Выйти из аккаунта' }).click();
  await page.waitForURL((address) => address.pathname === '/auth');
  return countSignatures;
}

/** The answers of the passkey sign-in on this page, in order. */
function passkeySignIns(page: Page): number[] {
  const statuses: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/passkeys/sign-in')) statuses.push(response.status());
  });
  return statuses;
}

const pressPasskeyButton = (page: Page) => () =>
  page.getByRole('button', { name: 'Войти с ключом доступа' }).click();

describe('a passkey account’s sign-in to a site through the provider', () => {
  it('signs in with the passkey alone (hwk, mfa); prompt=login on the signed-in browser asks for the passkey again', async () => {
    const account = await newSignedInAccount(world());
    await postJson(url('/authms/api/Auth/proof'), { password: account.password }, account.token);
    const page = await openSignedInPage(browser, account.token);
    const signatures = await addPasskeyAndSignOut(page);
    const signIns = passkeySignIns(page);
    const signedAtFirst = await signatures();

    const first = await signInToSite(page, pressPasskeyButton(page));
    expect(first).toMatchObject({
      sub: account.userId,
      aud: 'hosting',
      amr: ['hwk', 'mfa'],
      acr: TWO_FACTORS,
    });
    expect(signIns).toEqual([200]);
    expect(await signatures()).toBe(signedAtFirst + 1);

    // Signed in on the portal now, yet the site wants a fresh sign-in: the portal's session is
    // refused for it (409, ended by the page) and the forms ask again; the passkey signs again.
    browser.allowConsoleErrors(/status of 409/);
    const again = await signInToSite(
      page,
      async () => {
        await waitForToast(page, 'Сайт просит войти заново. Войдите ещё раз');
        await pressPasskeyButton(page)();
      },
      { prompt: 'login' },
    );
    expect(again).toMatchObject({ sub: account.userId, amr: ['hwk', 'mfa'], acr: TWO_FACTORS });
    expect(again.auth_time).toBeGreaterThanOrEqual(first.auth_time!);
    expect(signIns).toEqual([200, 200]);
    expect(await signatures()).toBe(signedAtFirst + 2);
  });

  it('asks for the passkey after the password when it is the account’s second factor (pwd, hwk)', async () => {
    const account = await newSignedInAccount(world());
    await postJson(url('/authms/api/Auth/proof'), { password: account.password }, account.token);
    const page = await openSignedInPage(browser, account.token);
    const signatures = await addPasskeyAndSignOut(page);
    const signedAtFirst = await signatures();
    const logins: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/Auth/login')) logins.push(response.status());
    });

    const claims = await signInToSite(page, () =>
      signInByForm(page, account.username, account.password),
    );
    expect(claims).toMatchObject({ sub: account.userId, amr: ['pwd', 'hwk'], acr: TWO_FACTORS });
    // The password was right and asked for the passkey; the login went again with its answer.
    expect(logins).toEqual([200, 200]);
    expect(await signatures()).toBe(signedAtFirst + 1);
  });

  it('signs in an account without a password (made through Yandex ID) with its passkey alone', async () => {
    // The portal has no account with a passkey as its only way in: one without a password keeps
    // Yandex ID (it cannot be unlinked before a password is set). Its passkey is a way in of
    // its own, asking nothing more.
    const email = `pk.${Date.now().toString(36)}@yandex.ru`;
    yandex.signInAs({ id: `pk${Date.now()}`, login: 'passkey.only', default_email: email });
    const page = await browser.newPage();
    await page.goto(url('/auth'));
    await page.getByRole('button', { name: 'Войти с Яндекс ID' }).click();
    await page.waitForURL((address) => address.pathname === '/');
    const token = (await page.evaluate(() => localStorage.getItem('access_token')))!;
    const user = await userOf(world().portal.baseUrl, token);
    expect(user.hasPassword).toBe(false);
    // No password: the owner proves it by a code from the mailbox.
    await postJson(url('/authms/api/Auth/proof/email-code'), {}, token);
    const emailCode = codeIn((await world().smtp.waitForLetter(email)).text);
    await postJson(url('/authms/api/Auth/proof'), { emailCode }, token);
    const signatures = await addPasskeyAndSignOut(page);
    const signedAtFirst = await signatures();

    const claims = await signInToSite(page, pressPasskeyButton(page));
    expect(claims).toMatchObject({ sub: user.id, amr: ['hwk', 'mfa'], acr: TWO_FACTORS });
    expect(await signatures()).toBe(signedAtFirst + 1);
  });
});
