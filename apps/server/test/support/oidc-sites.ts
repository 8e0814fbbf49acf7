// The portal as the OpenID Provider of two sites that listen for back-channel logouts: what the
// single sign-out tests share (modules/oidc/single-sign-out.test.ts, and the operator's block in
// modules/operator/block-ends-sites.test.ts). The sites' requests to the provider go through
// `app.inject`; the provider's logout tokens reach the sites over real HTTP.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, type JSONWebKeySet, type JWTPayload, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { ManualClock } from '../../src/adapters/clock.js';
import { loadConfig } from '../../src/config.js';
import { AUTH_API } from './auth-helpers.js';
import { createUser, DEFAULT_PASSWORD } from './fixtures.js';
import { Browser, FIREFOX, injectFetch } from './oidc-relying-party.js';
import { createTestApp, type TestApp } from './test-app.js';

// A portal on this machine: the library may then post logout tokens to a site on it.
export const ISSUER = 'http://localhost:3000';
export const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** A site: answers 200 to every logout token posted to it, or, while down, drops the connection. */
export class TestSite {
  readonly tokens: string[] = [];
  isDown = false;
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      if (this.isDown) {
        request.socket.destroy();
        return;
      }
      let body = '';
      request.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on('end', () => {
        const token = new URLSearchParams(body).get('logout_token');
        if (request.method === 'POST' && token) this.tokens.push(token);
        response.writeHead(token ? 200 : 400).end();
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/backchannel-logout`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const hosting = new TestSite();
export const launcher = new TestSite();

let testApp: TestApp;
export const sites: Record<'hosting' | 'launcher', client.Configuration> = {} as never;
let jwks: ReturnType<typeof createLocalJWKSet>;

/**
 * The portal on this machine's address with two sites, «Хостинг» and the launcher, each with a
 * real HTTP server on 127.0.0.1 as its back-channel logout address. Call once at the top of a
 * test file; the app is `oidcApp()` once the file's tests run.
 */
export function useOidcSites(): void {
  beforeAll(async () => {
    const [hostingUri, launcherUri] = await Promise.all([hosting.listen(), launcher.listen()]);
    const clients = [
      {
        client_id: 'hosting',
        client_secret: 'hosting-client-secret-0123456789abcdef',
        client_name: 'Хостинг',
        redirect_uris: ['https://hosting.example.com/oidc/callback'],
        post_logout_redirect_uris: ['https://hosting.example.com/'],
        grant_types: ['authorization_code', 'refresh_token'],
        backchannel_logout_uri: hostingUri,
        backchannel_logout_session_required: true,
      },
      {
        client_id: 'launcher',
        client_secret: 'launcher-client-secret-0123456789abcdef',
        redirect_uris: ['https://launcher.example.com/oidc/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        backchannel_logout_uri: launcherUri,
        backchannel_logout_session_required: true,
      },
    ];
    testApp = await createTestApp({
      // The provider keeps its own time; the portal's clock runs with it here.
      clock: new ManualClock(new Date()),
      config: {
        PUBLIC_URL: ISSUER,
        OIDC_CLIENTS: loadConfig({
          SECRET_KEY: 'x'.repeat(32),
          OIDC_CLIENTS: JSON.stringify(clients),
        }).OIDC_CLIENTS,
      },
    });
    for (const site of clients) {
      sites[site.client_id as 'hosting' | 'launcher'] = await client.discovery(
        new URL(ISSUER),
        site.client_id,
        site.client_secret,
        undefined,
        { execute: [client.allowInsecureRequests], [client.customFetch]: injectFetch(testApp.app) },
      );
    }
    const keys = await testApp.app.inject({ url: '/oidc/jwks' });
    jwks = createLocalJWKSet(keys.json<JSONWebKeySet>());
  });

  afterAll(async () => {
    await Promise.all([hosting.close(), launcher.close()]);
  });

  beforeEach(async () => {
    // What an earlier test queued is delivered before this one starts counting.
    await testApp.app.deps.mail.flush();
    hosting.tokens.length = 0;
    launcher.tokens.length = 0;
    hosting.isDown = false;
    launcher.isDown = false;
  });
}

/** The app of `useOidcSites`. */
export function oidcApp(): TestApp {
  return testApp;
}

let address = 0;
export const nextIp = () => `10.79.${Math.floor(++address / 250)}.${address % 250}`;

export async function signInToPortal(login: string, userAgent = FIREFOX) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: `${AUTH_API}/login`,
    payload: { usernameOrEmail: login, password: DEFAULT_PASSWORD },
    headers: { 'user-agent': userAgent },
    remoteAddress: nextIp(),
  });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json().token as string}` };
}

/**
 * The site's authorization in the browser, through /auth when the provider asks for a sign-in
 * (finished with the portal session `session`), straight back when it already knows the person
 * (single sign-on). Answers the tokens the site gets, its refresh token among them.
 */
export async function signInToSite(
  browser: Browser,
  site: 'hosting' | 'launcher',
  session: Record<string, string>,
) {
  const config = sites[site];
  const verifier = client.randomPKCECodeVerifier();
  const redirectUri = `https://${site}.example.com/oidc/callback`;
  let response = await browser.request(
    'GET',
    client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      prompt: 'consent',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }),
  );
  expect(response.statusCode, response.body).toBe(303);
  let location = new URL(response.headers.location!, ISSUER);
  if (location.pathname.startsWith('/oidc/interaction/')) {
    const toAuth = await browser.request('GET', location);
    const uid = new URL(toAuth.headers.location!, ISSUER).searchParams.get('interaction');
    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    expect(finished.statusCode, finished.body).toBe(200);
    response = await browser.request('GET', finished.json().url as string);
    expect(response.statusCode, response.body).toBe(303);
    location = new URL(response.headers.location!);
  }
  expect(location.origin + location.pathname).toBe(redirectUri);
  const tokens = await client.authorizationCodeGrant(config, location, {
    pkceCodeVerifier: verifier,
  });
  expect(tokens.refresh_token).toBeTruthy();
  return {
    refreshToken: tokens.refresh_token!,
    idToken: tokens.id_token!,
    sid: tokens.claims()!.sid as string,
  };
}

export async function devicesOf(session: Record<string, string>) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: `${AUTH_API}/devices`,
    headers: session,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<
    { id: string; site?: string; kind?: string; userAgent: string; isCurrent: boolean }[]
  >();
}

export async function expectRefreshRefused(site: 'hosting' | 'launcher', refreshToken: string) {
  await expect(client.refreshTokenGrant(sites[site], refreshToken)).rejects.toMatchObject({
    error: 'invalid_grant',
  });
}

/** The logout tokens the site received, each verified as Back-Channel Logout 1.0 asks. */
export async function verifiedLogouts(site: 'hosting' | 'launcher', received: TestSite) {
  await testApp.app.deps.mail.flush();
  const verified: JWTPayload[] = [];
  for (const token of received.tokens) {
    const { payload, protectedHeader } = await jwtVerify(token, jwks, {
      issuer: ISSUER,
      audience: site,
      typ: 'logout+jwt',
    });
    expect(protectedHeader.alg).toMatch(/^(RS|ES)256$/);
    expect(payload.events).toEqual({ [BACKCHANNEL_EVENT]: {} });
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.iat).toEqual(expect.any(Number));
    expect(payload.jti).toEqual(expect.any(String));
    verified.push(payload);
  }
  return verified;
}

export async function expectLoggedOut(
  site: 'hosting' | 'launcher',
  received: TestSite,
  signIn: { userId: string; sid: string },
) {
  const logouts = await verifiedLogouts(site, received);
  expect(logouts).toEqual([expect.objectContaining({ sub: signIn.userId, sid: signIn.sid })]);
}

/** A user signed in to the portal and, through it, to both sites. */
export async function signedInEverywhere(userAgent = FIREFOX) {
  const user = await createUser(testApp);
  const session = await signInToPortal(user.userName, userAgent);
  const browser = new Browser(testApp.app, userAgent);
  const atHosting = await signInToSite(browser, 'hosting', session);
  const atLauncher = await signInToSite(browser, 'launcher', session);
  return { user, session, atHosting, atLauncher };
}

export async function expectBothSitesSignedOut(
  signedIn: Awaited<ReturnType<typeof signedInEverywhere>>,
) {
  const { user, atHosting, atLauncher } = signedIn;
  await expectRefreshRefused('hosting', atHosting.refreshToken);
  await expectRefreshRefused('launcher', atLauncher.refreshToken);
  await expectLoggedOut('hosting', hosting, { userId: user.id, sid: atHosting.sid });
  await expectLoggedOut('launcher', launcher, { userId: user.id, sid: atLauncher.sid });
}

export { Browser, FIREFOX, injectFetch };
