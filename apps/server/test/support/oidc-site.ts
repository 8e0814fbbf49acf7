/**
 * A site of the brand signing people in through the portal's OpenID Provider, in-process:
 * openid-client (the certified relying party library) talking to `app.inject`, and a browser
 * played by hand that keeps its cookies and follows nothing by itself.
 */
import type { FastifyInstance } from 'fastify';
import * as client from 'openid-client';
import { expect } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AUTH_API } from './auth-helpers.js';
import { DEFAULT_PASSWORD } from './fixtures.js';
import { Browser, injectFetch, OIDC_ISSUER } from './oidc-relying-party.js';

export const ISSUER = OIDC_ISSUER;
export const SECRET = 'hosting-client-secret-0123456789abcdef';
export const CALLBACK = 'https://hosting.example.com/oidc/callback';
/**
 * A confidential web site, the public native launcher, and a site that declares no refresh
 * token grant (so it never gets one).
 */
export const CLIENTS = [
  {
    client_id: 'hosting',
    client_secret: SECRET,
    client_name: 'Хостинг',
    redirect_uris: [CALLBACK],
    grant_types: ['authorization_code', 'refresh_token'],
  },
  {
    client_id: 'launcher',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    redirect_uris: ['http://127.0.0.1/callback'],
    grant_types: ['authorization_code', 'refresh_token'],
  },
  {
    client_id: 'shop',
    client_secret: SECRET,
    redirect_uris: [CALLBACK],
    grant_types: ['authorization_code'],
  },
];

/** The clients as the setting gives them, checked and completed by the configuration. */
export function clientsSetting(clients: object[]) {
  return loadConfig({
    SECRET_KEY: 'x'.repeat(32),
    OIDC_CLIENTS: JSON.stringify(clients),
  }).OIDC_CLIENTS;
}

/** A confidential site (`hosting`, `shop`) as openid-client sees the provider (through `app.inject`). */
export function discoverSite(
  app: FastifyInstance,
  clientId = 'hosting',
): Promise<client.Configuration> {
  return client.discovery(new URL(ISSUER), clientId, SECRET, undefined, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: injectFetch(app),
  });
}

/** A portal sign-in by password through its route; the bearer header of the session. */
export async function signInToPortal({ app }: { app: FastifyInstance }, login: string) {
  const response = await app.inject({
    method: 'POST',
    url: `${AUTH_API}/login`,
    payload: { usernameOrEmail: login, password: DEFAULT_PASSWORD },
  });
  expect(response.statusCode).toBe(200);
  return { authorization: `Bearer ${response.json().token as string}` };
}

/**
 * A whole sign-in of `hosting` with a portal session: the authorization (code, PKCE), the
 * interaction finished with the session, the code exchanged. Answers the token set.
 */
export async function signInToSite(
  app: FastifyInstance,
  config: client.Configuration,
  session: Record<string, string>,
  scope = 'openid',
) {
  const browser = new Browser(app);
  const verifier = client.randomPKCECodeVerifier();
  const started = await browser.request(
    'GET',
    client.buildAuthorizationUrl(config, {
      redirect_uri: CALLBACK,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }),
  );
  expect(started.statusCode, started.body).toBe(303);
  const uid = started.headers.location!.split('/').pop()!;
  const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
  expect(finished.statusCode, finished.body).toBe(200);
  const back = await browser.request('GET', finished.json().url as string);
  expect(back.statusCode, back.body).toBe(303);
  return client.authorizationCodeGrant(config, new URL(back.headers.location!), {
    pkceCodeVerifier: verifier,
    idTokenExpected: true,
  });
}

export { Browser, injectFetch };
