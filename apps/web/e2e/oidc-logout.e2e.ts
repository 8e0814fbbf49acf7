import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount } from '../test/support/e2e/fixtures';
import {
  discoverPublicClient,
  setupPortalWithSite,
  signInToSiteThroughAuth,
} from '../test/support/e2e/oidc-site';

// A brand site signs the person out through the portal (RP-initiated logout): the portal's
// Russian confirm page, then back to the site. The page's CSP allows its form to post to the
// portal only, and the answer's redirect to the site's declared address: a browser applies
// `form-action` to that redirect too, and a refusal would be a console error, failing the test.
const { site, world } = setupPortalWithSite((origin) => ({
  client_id: 'hosting',
  client_name: 'Хостинг',
  token_endpoint_auth_method: 'none',
  redirect_uris: [`${origin}/callback`],
  post_logout_redirect_uris: [`${origin}/signed-out`],
}));
const browser = setupBrowser();

describe('a brand site’s sign-out through the portal', () => {
  it('asks on the Russian page at 375 px, and «Выйти» returns to the site', async () => {
    const account = await newSignedInAccount(world());
    const config = await discoverPublicClient(world().portal.baseUrl);
    const page = await browser.newPage({ viewport: MOBILE_VIEWPORT });
    const tokens = await signInToSiteThroughAuth(page, config, {
      redirectUri: `${site().origin}/callback`,
      login: account.username,
      password: account.password,
    });

    await page.goto(
      client
        .buildEndSessionUrl(config, {
          id_token_hint: tokens.id_token!,
          post_logout_redirect_uri: `${site().origin}/signed-out`,
          state: 'bye',
        })
        .toString(),
    );
    await page.getByRole('heading', { name: 'Выйти из аккаунта?' }).waitFor();
    await page.getByText('«Хостинг» просит завершить вход через аккаунт.').waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    await page.getByRole('button', { name: 'Выйти', exact: true }).click();
    await page.waitForURL((address) => address.origin === site().origin);
    const back = new URL(page.url());
    expect(back.pathname).toBe('/signed-out');
    expect(back.searchParams.get('state')).toBe('bye');
  });
});
