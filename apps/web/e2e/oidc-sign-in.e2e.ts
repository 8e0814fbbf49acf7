import { describe, expect, it } from 'vitest';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount } from '../test/support/e2e/fixtures';
import {
  codeAtCallback,
  discoverPublicClient,
  setupPortalWithSite,
  signInToSiteThroughAuth,
  siteAuthorization,
} from '../test/support/e2e/oidc-site';

// A brand site signs a person in with the portal's OpenID provider, the way any certified
// library does (openid-client here): the browser goes to the portal, signs in on /auth, and comes
// back to the site's callback with a code the site exchanges for the person's ID token.
const { site, world } = setupPortalWithSite((origin) => ({
  client_id: 'hosting',
  token_endpoint_auth_method: 'none',
  redirect_uris: [`${origin}/callback`],
}));
const browser = setupBrowser();

describe('a brand site’s sign-in through the portal', () => {
  it('walks /auth to the site’s callback, and the site gets the person; signed in, it goes straight back', async () => {
    const account = await newSignedInAccount(world());
    const config = await discoverPublicClient(world().portal.baseUrl);
    const redirectUri = `${site().origin}/callback`;

    const page = await browser.newPage();
    const tokens = await signInToSiteThroughAuth(page, config, {
      redirectUri,
      login: account.username,
      password: account.password,
      scope: 'openid profile',
    });
    expect(tokens.claims()).toMatchObject({ sub: account.userId, amr: ['pwd'] });

    // The portal session is still there: the next sign-in asks nothing.
    const second = await siteAuthorization(config, redirectUri, 'openid profile');
    await page.goto(second.url.href);
    const again = await codeAtCallback(page, config, second);
    expect(again.claims()?.sub).toBe(account.userId);
  });
});
