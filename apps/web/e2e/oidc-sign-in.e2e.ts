import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInByForm, startSiblingSite } from '../test/support/e2e/auth-helpers';
import { setupBrowser } from '../test/support/e2e/browser';
import { newSignedInAccount, setupPortalWithSmtp } from '../test/support/e2e/fixtures';

// A brand site signs a person in with the portal's OpenID provider, the way any certified
// library does (openid-client here): the browser goes to the portal, signs in on /auth, and comes
// back to the site's callback with a code the site exchanges for the person's ID token.
let site: Awaited<ReturnType<typeof startSiblingSite>>;
const env: Record<string, string> = {};
beforeAll(async () => {
  site = await startSiblingSite();
  env.OIDC_CLIENTS = JSON.stringify([
    {
      client_id: 'hosting',
      token_endpoint_auth_method: 'none',
      redirect_uris: [`${site.origin}/callback`],
    },
  ]);
});
afterAll(async () => {
  await site?.close();
});
const world = setupPortalWithSmtp(env);
const browser = setupBrowser();

describe('a brand site’s sign-in through the portal', () => {
  it('walks /auth to the site’s callback, and the site gets the person; signed in, it goes straight back', async () => {
    const { portal } = world();
    const account = await newSignedInAccount(world());
    const config = await client.discovery(
      new URL(portal.baseUrl),
      'hosting',
      undefined,
      client.None(),
      {
        execute: [client.allowInsecureRequests],
      },
    );
    const authorizationUrl = async () => {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${site.origin}/callback`,
        scope: 'openid profile',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      return { url, verifier, state };
    };
    const atCallback = (address: URL) =>
      address.origin === site.origin && address.pathname === '/callback';

    const page = await browser.newPage();
    const first = await authorizationUrl();
    await page.goto(first.url.href);
    await page.waitForURL((address) => address.pathname === '/auth');
    expect(new URL(page.url()).searchParams.get('interaction')).toBeTruthy();
    await signInByForm(page, account.username, account.password);
    await page.waitForURL(atCallback);
    const tokens = await client.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: first.verifier,
      expectedState: first.state,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: account.userId, amr: ['pwd'] });

    // The portal session is still there: the next sign-in asks nothing.
    const second = await authorizationUrl();
    await page.goto(second.url.href);
    await page.waitForURL(atCallback);
    const again = await client.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
    });
    expect(again.claims()?.sub).toBe(account.userId);
  });
});
