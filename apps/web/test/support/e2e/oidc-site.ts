import * as client from 'openid-client';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { signInByForm, startSiblingSite } from './auth-helpers';
import { type PortalWithSmtp, setupPortalWithSmtp } from './fixtures';

// A brand site signing in through the portal's OpenID provider in the browser tests, with
// openid-client as any certified library does it: a public client, PKCE (S256) and `state`.

type Site = { origin: string; close(): Promise<void> };

/**
 * For the whole test file: a site on 127.0.0.1 (`startSite`, by default a page for any path),
 * and one portal with it as its one client of OIDC_CLIENTS, made by `clientOf` from the site's
 * origin. Both are read inside a test.
 */
export function setupPortalWithSite<S extends Site>(
  clientOf: (origin: string) => Record<string, unknown>,
  startSite: () => Promise<S> = startSiblingSite as () => Promise<S>,
): { site: () => S; world: () => PortalWithSmtp } {
  let site: S | undefined;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    site = await startSite();
    env.OIDC_CLIENTS = JSON.stringify([clientOf(site.origin)]);
  });
  afterAll(async () => {
    await site?.close();
  });
  const world = setupPortalWithSmtp(env);
  return {
    site: () => {
      if (!site) throw new Error('setupPortalWithSite(): use it inside a test');
      return site;
    },
    world,
  };
}

/** The public client `clientId` as openid-client sees the portal at `portalUrl` (plain http). */
export function discoverPublicClient(
  portalUrl: string,
  clientId = 'hosting',
): Promise<client.Configuration> {
  return client.discovery(new URL(portalUrl), clientId, undefined, client.None(), {
    execute: [client.allowInsecureRequests],
  });
}

export type SiteAuthorization = {
  /** Where the site sends the browser. */
  url: URL;
  /** What the site keeps for its callback. */
  verifier: string;
  state: string;
  redirectUri: string;
};

/** The authorization URL a site makes, with the checks it keeps for its callback. */
export async function siteAuthorization(
  config: client.Configuration,
  redirectUri: string,
  scope = 'openid',
): Promise<SiteAuthorization> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  });
  return { url, verifier, state, redirectUri };
}

/** Waits for the browser at the site's callback, and exchanges the code there as the site does. */
export async function codeAtCallback(
  page: Page,
  config: client.Configuration,
  authorization: SiteAuthorization,
) {
  const callback = new URL(authorization.redirectUri);
  await page.waitForURL(
    (address) => address.origin === callback.origin && address.pathname === callback.pathname,
  );
  return client.authorizationCodeGrant(config, new URL(page.url()), {
    pkceCodeVerifier: authorization.verifier,
    expectedState: authorization.state,
    idTokenExpected: true,
  });
}

/**
 * The whole sign-in of a site for a browser with no portal session: the portal sends it to
 * `/auth?interaction=…`, the person signs in with the form, and the site exchanges the code at
 * its callback. Answers the site's token set.
 */
export async function signInToSiteThroughAuth(
  page: Page,
  config: client.Configuration,
  options: { redirectUri: string; login: string; password: string; scope?: string },
) {
  const authorization = await siteAuthorization(config, options.redirectUri, options.scope);
  await page.goto(authorization.url.href);
  await page.waitForURL(
    (address) => address.pathname === '/auth' && address.searchParams.has('interaction'),
  );
  await signInByForm(page, options.login, options.password);
  return codeAtCallback(page, config, authorization);
}
