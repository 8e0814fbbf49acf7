import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { enableAuthenticator, signInByForm, totpCode } from '../test/support/e2e/auth-helpers';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';
import { discoverPublicClient } from '../test/support/e2e/oidc-site';

// The launcher without a browser of its own signs in with the device authorization grant
// (RFC 8628), the way any certified library does (openid-client here): it shows a link (as a QR
// code) or a code; the person opens the portal's Russian page, signs in on /auth with the
// account's every step, confirms, and the launcher's poll gets the person's tokens. The pages
// live under a strict CSP: a blocked style or script would be a console error, failing the test.
const world = setupPortalWithSmtp({
  OIDC_CLIENTS: JSON.stringify([
    {
      client_id: 'console',
      client_name: 'Лаунчер',
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
    },
  ]),
});
const browser = setupBrowser();

async function launcher() {
  const config = await discoverPublicClient(world().portal.baseUrl, 'console');
  const started = await client.initiateDeviceAuthorization(config, { scope: 'openid' });
  return { config, started };
}

/** The page fits its width: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

const backgroundOf = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.body).backgroundColor);

describe('the launcher’s sign-in with a code (device flow)', () => {
  it('opens the QR link, signs in with the second step on /auth, confirms, and the launcher gets the person', async () => {
    const account = await newSignedInAccount(world());
    const { secret } = await enableAuthenticator(world().portal.baseUrl, account);
    const { config, started } = await launcher();
    // The launcher polls all along, at the interval the portal told it.
    const polled = client.pollDeviceAuthorizationGrant(config, started);

    const page = await browser.newPage();
    await page.goto(started.verification_uri_complete!);
    // The link's page posts the code by itself (the library's script, allowed by its hash).
    const confirm = page.getByRole('button', { name: 'Подтвердить' });
    await confirm.waitFor();
    await page.getByText('«Лаунчер» просит войти в ваш аккаунт.').waitFor();
    await page.getByText(started.user_code, { exact: true }).waitFor();
    await confirm.click();

    await page.waitForURL((address) => address.pathname === '/auth');
    expect(new URL(page.url()).searchParams.get('interaction')).toBeTruthy();
    await signInByForm(page, account.username, account.password);
    const codeField = page.getByLabel('Код подтверждения');
    // The step after the one spent on switching the authenticator on.
    await codeField.fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Войти', exact: true }).click();

    await page.getByText('Вход выполнен. Вернитесь к устройству').waitFor();
    const tokens = await polled;
    expect(tokens.claims()).toMatchObject({
      sub: account.userId,
      aud: 'console',
      acr: 'urn:portal:acr:2fa',
    });
  });

  it('takes the code typed by hand on a 375 px phone in the dark theme, with spaces; «Отмена» refuses the launcher', async () => {
    const { config, started } = await launcher();
    const polled = client.pollDeviceAuthorizationGrant(config, started);
    const page = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme: 'dark' });
    await page.goto(started.verification_uri);
    await page.getByRole('heading', { name: 'Вход на устройстве' }).waitFor();
    await page.getByText('Введите код, который показывает устройство').waitFor();
    expect(await backgroundOf(page)).toBe('rgb(10, 12, 17)');
    await expectNoSidewaysScroll(page);

    // A wrong code first: the Russian error, and the page asks again.
    const field = page.getByLabel('Код с экрана устройства');
    await field.fill('000 000 000');
    await page.getByRole('button', { name: 'Продолжить' }).click();
    await page.getByText('Такого кода нет.', { exact: false }).waitFor();
    await expectNoSidewaysScroll(page);

    await field.fill(started.user_code.replaceAll('-', ' '));
    await page.getByRole('button', { name: 'Продолжить' }).click();
    await page.getByRole('button', { name: 'Подтвердить' }).waitFor();
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Отмена' }).click();
    await page.getByText('Вход отменён.', { exact: false }).waitFor();
    await expect(polled).rejects.toMatchObject({ error: 'access_denied' });
  });

  it('is light where the system is light', async () => {
    const { started } = await launcher();
    const page = await browser.newPage({ viewport: MOBILE_VIEWPORT, colorScheme: 'light' });
    await page.goto(started.verification_uri);
    await page.getByRole('heading', { name: 'Вход на устройстве' }).waitFor();
    expect(await backgroundOf(page)).toBe('rgb(243, 245, 250)');
  });
});
