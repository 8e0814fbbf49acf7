import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount } from '../test/support/e2e/fixtures';
import {
  discoverPublicClient,
  setupPortalWithSite,
  signInToSiteThroughAuth,
} from '../test/support/e2e/oidc-site';

// Single sign-out in the browser: a site signs in through the portal (openid-client as the site),
// its sign-in shows in «Привязанные устройства» as its own row, «Выйти» on that row signs out of
// that site only, and the site, listening on 127.0.0.1, receives a back-channel logout token that
// verifies against the portal's published keys.

/** The site: its callback page, and its back-channel logout address collecting the tokens. */
async function startSite() {
  const logoutTokens: string[] = [];
  const server: Server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/backchannel-logout') {
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (token) logoutTokens.push(token);
        response.writeHead(token ? 200 : 400).end();
      });
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Хостинг</title><h1>Хостинг</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    logoutTokens,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const { site: startedSite, world } = setupPortalWithSite(
  (origin) => ({
    client_id: 'hosting',
    client_name: 'Хостинг',
    token_endpoint_auth_method: 'none',
    redirect_uris: [`${origin}/callback`],
    backchannel_logout_uri: `${origin}/backchannel-logout`,
    backchannel_logout_session_required: true,
  }),
  startSite,
);
const browser = setupBrowser();

describe('a site signed in through the portal, in «Привязанные устройства»', () => {
  it('is its own row; «Выйти» on it signs out of that site, which receives a valid logout token', async () => {
    const { portal } = world();
    const site = startedSite();
    const account = await newSignedInAccount(world());
    const config = await discoverPublicClient(portal.baseUrl);
    const page = await browser.newPage();
    const tokens = await signInToSiteThroughAuth(page, config, {
      redirectUri: `${site.origin}/callback`,
      login: account.username,
      password: account.password,
    });
    const { sub, sid } = tokens.claims()!;
    expect(sub).toBe(account.userId);
    expect(sid).toBeTruthy();

    // The same browser, signed in to the portal by that sign-in, opens its devices.
    await page.goto(`${portal.baseUrl}/profile/devices`);
    await page.getByRole('heading', { level: 1, name: 'Привязанные устройства' }).waitFor();
    const siteRow = page.locator('[data-testid="device-row"][data-device-kind="site"]');
    await siteRow.waitFor();
    expect(await siteRow.textContent()).toContain('Вход на сайт «Хостинг»');
    // The browser of the sign-in, as the session rows describe it (Chromium on Linux).
    expect(await siteRow.textContent()).toMatch(/Linux.*Chrom/);
    const portalRows = page.locator('[data-testid="device-row"][data-device-kind="session"]');
    const portalCount = await portalRows.count();
    expect(portalCount).toBeGreaterThanOrEqual(1);

    await siteRow.getByRole('button', { name: /Выйти/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Точно выйти?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Вход на сайт «Хостинг»');
    await dialog.getByRole('button', { name: 'Выйти', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await siteRow.waitFor({ state: 'detached' });
    // Only the site: the portal's sessions stay, and this page with them.
    expect(await portalRows.count()).toBe(portalCount);
    expect(new URL(page.url()).pathname).toBe('/profile/devices');

    await expect.poll(() => site.logoutTokens.length, { timeout: 15_000 }).toBe(1);
    const jwks = createRemoteJWKSet(new URL(`${portal.baseUrl}/oidc/jwks`));
    const { payload } = await jwtVerify(site.logoutTokens[0]!, jwks, {
      issuer: portal.baseUrl,
      audience: 'hosting',
      typ: 'logout+jwt',
    });
    expect(payload).toMatchObject({
      sub: account.userId,
      sid,
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
    });
    expect(payload).not.toHaveProperty('nonce');
  });
});
