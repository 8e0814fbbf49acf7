import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInByForm } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import {
  type ExampleSite,
  exampleClients,
  startExampleSite,
} from '../test/support/e2e/example-site';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';
import { freePort } from '../test/support/e2e/portal';

// examples/oidc-site works as its README says: the portal with the README's client, the site
// started by the README's command, and a person who signs in on the portal's /auth, sees their
// name on the site, refreshes the tokens and signs out through the portal (RP-initiated logout).
let sitePort = 0;
const env: Record<string, string> = {};
beforeAll(async () => {
  sitePort = await freePort();
  env.OIDC_CLIENTS = exampleClients(`http://127.0.0.1:${sitePort}`);
});
const world = setupPortalWithSmtp(env);
const browser = setupBrowser();
let site: ExampleSite | undefined;
beforeAll(async () => {
  site = await startExampleSite({ portalUrl: world().portal.baseUrl, port: sitePort });
});
afterAll(async () => {
  await site?.stop();
});

describe('the example site of examples/oidc-site', () => {
  it('signs in through the portal, shows who, refreshes, and signs out through the portal', async () => {
    const account = await newSignedInAccount(world());
    const { origin } = site!;
    const atSiteHome = (address: URL) => address.origin === origin && address.pathname === '/';
    const field = (name: string) => page.locator(`[data-field="${name}"]`);

    const page = await browser.newPage();
    await page.goto(origin);
    await page.getByRole('link', { name: 'Войти через аккаунт бренда' }).click();
    await page.waitForURL(
      (address) => address.pathname === '/auth' && address.searchParams.has('interaction'),
    );
    await signInByForm(page, account.username, account.password);

    await page.waitForURL(atSiteHome);
    await field('preferred_username').waitFor();
    expect(await field('preferred_username').textContent()).toBe(account.username);
    expect(await field('email').textContent()).toBe(account.email);
    expect(await field('amr').textContent()).toBe('pwd');

    // The refresh token is spent and its successor kept: the person is still there after.
    await page.getByRole('button', { name: 'Обновить токены' }).click();
    await page.getByRole('status').filter({ hasText: 'Токены обновлены.' }).waitFor();
    expect(await field('email').textContent()).toBe(account.email);

    await page.getByRole('button', { name: 'Выйти' }).click();
    // The portal's confirmation of the sign-out (modules/oidc/pages.ts), then the site's home page.
    await page.waitForURL((address) => address.pathname === '/oidc/session/end');
    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL(atSiteHome);
    await page.getByRole('link', { name: 'Войти через аккаунт бренда' }).waitFor();
    expect(await field('preferred_username').count()).toBe(0);
  });
});
