/**
 * Everything the site does with the portal's OpenID provider, through openid-client (OpenID
 * Certified): discovery, the authorization code with PKCE (S256), `state` and `nonce`, the ID
 * token's validation, userinfo, refresh and RP-initiated logout. No protocol code of our own.
 */
import * as client from 'openid-client';
import type { SiteConfig } from './config.ts';
import type { PendingSignIn, SignedInUser } from './sessions.ts';

/**
 * `offline_access` brings a refresh token: the portal gives one to the brand's own sites without
 * `prompt=consent` (it asks them no consent); it lives as long as the person's session there.
 */
const SCOPE = 'openid profile email offline_access';

export const CALLBACK_PATH = '/callback';
export const BACKCHANNEL_LOGOUT_PATH = '/backchannel-logout';
/** Where the portal sends the browser after a sign-out: the home page, signed out by then. */
export const POST_LOGOUT_PATH = '/';

export interface PortalSignIn {
  /** The provider's metadata and this client, found once by discovery. */
  configuration(): Promise<client.Configuration>;
  /** Where to send the browser, and the checks to keep for the callback. */
  start(): Promise<{ url: URL; pending: PendingSignIn }>;
  /** The callback: the code exchanged, the ID token validated, userinfo read. */
  finish(callbackUrl: URL, pending: PendingSignIn): Promise<SignedInUser>;
  /** New tokens for a refresh token (which the portal rotates: the old one is spent). */
  refresh(user: SignedInUser): Promise<SignedInUser>;
  /** The portal's end-session address for this person, back to the site's home page after. */
  endSessionUrl(user: SignedInUser): Promise<URL>;
}

export function createPortalSignIn(config: SiteConfig): PortalSignIn {
  let discovered: Promise<client.Configuration> | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        config.portalUrl,
        config.clientId,
        undefined,
        client.ClientSecretBasic(config.clientSecret),
        // Plain http is for a portal on this machine only (npm start); a real one is https.
        config.portalUrl.protocol === 'http:'
          ? { execute: [client.allowInsecureRequests] }
          : undefined,
      )
      .catch((error: unknown) => {
        // The portal may start after the site: the next request tries discovery again.
        discovered = undefined;
        throw error;
      });
    return discovered;
  };
  const redirectUri = new URL(CALLBACK_PATH, config.siteUrl).href;

  return {
    configuration,
    async start() {
      const pending: PendingSignIn = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: SCOPE,
        code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url, pending };
    },
    async finish(callbackUrl, pending) {
      const portal = await configuration();
      const tokens = await client.authorizationCodeGrant(portal, callbackUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims()!;
      return signedInUser(portal, tokens, claims, undefined);
    },
    async refresh(user) {
      if (!user.refreshToken) throw new Error('no refresh token');
      const portal = await configuration();
      const tokens = await client.refreshTokenGrant(portal, user.refreshToken);
      // A refreshed ID token is checked by the library against the first one (same sub).
      return signedInUser(portal, tokens, tokens.claims() ?? user.idTokenClaims, user);
    },
    async endSessionUrl(user) {
      return client.buildEndSessionUrl(await configuration(), {
        id_token_hint: user.idToken,
        post_logout_redirect_uri: new URL(POST_LOGOUT_PATH, config.siteUrl).href,
      });
    },
  };
}

async function signedInUser(
  portal: client.Configuration,
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  claims: Record<string, unknown>,
  before: SignedInUser | undefined,
): Promise<SignedInUser> {
  const sub = String(claims.sub);
  // Userinfo is read with the access token and must be about the ID token's person.
  const userinfo = await client.fetchUserInfo(portal, tokens.access_token, sub);
  const expiresIn = tokens.expiresIn();
  return {
    sub,
    sid: typeof claims.sid === 'string' ? claims.sid : before?.sid,
    idToken: tokens.id_token ?? before?.idToken ?? '',
    idTokenClaims: claims,
    userinfo: { ...userinfo },
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token ?? before?.refreshToken,
    accessTokenExpiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
  };
}
