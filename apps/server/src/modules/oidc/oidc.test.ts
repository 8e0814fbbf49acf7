// The provider against the certified relying party library (openid-client), the browser played
// by hand: discovery, the authorization code with PKCE through the portal's own sign-in, the ID
// token and userinfo, refresh token rotation, and the protocol's refusals.
import { createPublicKey, type JsonWebKeyInput, verify } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_API, TOTP_STEP_MS, turnOnAuthenticator } from '../../../test/support/auth-helpers.js';
import { createUser, DEFAULT_PASSWORD, signIn } from '../../../test/support/fixtures.js';
import {
  Browser,
  CALLBACK,
  CLIENTS,
  clientsSetting,
  discoverSite,
  ISSUER,
  injectFetch,
  SECRET,
  signInToPortal,
  signInToSite,
} from '../../../test/support/oidc-site.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { createTestDatabase } from '../../../test/support/test-database.js';
import { ManualClock } from '../../adapters/clock.js';
import { buildApp } from '../../app.js';
import { ConfigError, testConfig } from '../../config.js';
import { users } from '../accounts/schema.js';
import { NO_CLIENT } from '../security-log/index.js';
import { totpCode } from '../two-factor/index.js';
import { OIDC_MESSAGES } from './messages.js';
import { ACR } from './provider.js';
import { ACTIVATION_DELAY_MS, PUBLISHED_AFTER_RETIREMENT_MS } from './signing-keys.js';

describe('the OpenID provider', () => {
  let testApp: TestApp;
  let config: client.Configuration;

  beforeAll(async () => {
    testApp = await createTestApp({
      // The provider keeps its own time; the portal's clock runs with it here.
      clock: new ManualClock(new Date()),
      config: { OIDC_CLIENTS: clientsSetting(CLIENTS) },
    });
    config = await client.discovery(new URL(ISSUER), 'hosting', SECRET, undefined, {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch(testApp.app),
    });
  });

  /** The browser is sent to the provider, then on to /auth with the interaction's id. */
  async function begin(browser: Browser, parameters: Record<string, string>) {
    const started = await browser.request('GET', client.buildAuthorizationUrl(config, parameters));
    expect(started.statusCode).toBe(303);
    const interaction = await browser.request('GET', started.headers.location!);
    expect(interaction.statusCode).toBe(303);
    const uid = new URL(interaction.headers.location!, ISSUER).searchParams.get('interaction');
    expect(interaction.headers.location).toBe(`/auth?interaction=${uid}`);
    return uid!;
  }

  /** Up to the redirect back to the site: the browser is sent to /auth and finishes there. */
  async function authorize(
    browser: Browser,
    session: Record<string, string>,
    parameters: Record<string, string>,
  ) {
    const uid = await begin(browser, parameters);
    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    expect(finished.statusCode, finished.body).toBe(200);
    const back = await browser.request('GET', finished.json().url as string);
    expect(back.statusCode).toBe(303);
    return new URL(back.headers.location!);
  }

  async function pkceParameters(more: Record<string, string> = {}) {
    const verifier = client.randomPKCECodeVerifier();
    return {
      redirect_uri: CALLBACK,
      scope: 'openid',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...more,
    };
  }

  it('answers discovery at PUBLIC_URL with PUBLIC_URL as the issuer, whatever host was asked', async () => {
    const response = await testApp.app.inject({
      url: '/.well-known/openid-configuration',
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(response.json()).toMatchObject({
      issuer: ISSUER,
      jwks_uri: `${ISSUER}/oidc/jwks`,
    });
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(ISSUER);
    expect(metadata.authorization_endpoint).toBe(`${ISSUER}/oidc/auth`);
    expect(metadata.token_endpoint).toBe(`${ISSUER}/oidc/token`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(
      expect.arrayContaining(['RS256', 'ES256']),
    );
  });

  it('signs a portal user in to a site: code with PKCE, ID token, userinfo, rotating refresh tokens', async () => {
    const user = await createUser(testApp, { avatarUrl: '/uploads/avatars/a.png' });
    const session = await signInToPortal(testApp, user.userName);
    const browser = new Browser(testApp.app);
    const verifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const state = client.randomState();
    const callback = await authorize(browser, session, {
      redirect_uri: CALLBACK,
      // First-party: offline_access gives a refresh token without prompt=consent.
      scope: 'openid profile email offline_access',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      nonce,
      state,
    });
    expect(callback.origin + callback.pathname).toBe(CALLBACK);

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedNonce: nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: ISSUER, aud: 'hosting', sub: user.id, nonce });
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe('urn:portal:acr:1fa');

    const userInfo = await client.fetchUserInfo(config, tokens.access_token, user.id);
    expect(userInfo).toEqual({
      sub: user.id,
      preferred_username: user.userName,
      name: 'Иван Петров',
      given_name: 'Иван',
      family_name: 'Петров',
      picture: `${ISSUER}/uploads/avatars/a.png`,
      email: user.email,
      email_verified: true,
    });

    // Rotation: each refresh answers a new refresh token; the used one, sent again, ends the grant.
    const first = tokens.refresh_token!;
    expect(first).toBeTruthy();
    const refreshed = await client.refreshTokenGrant(config, first);
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(first);
    await expect(client.refreshTokenGrant(config, first)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(client.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // The code was spent by the first exchange.
    await expect(
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedNonce: nonce,
        expectedState: state,
      }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('signs the launcher in: a public native client, its loopback redirect on any port', async () => {
    const launcher = await client.discovery(new URL(ISSUER), 'launcher', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch(testApp.app),
    });
    const user = await createUser(testApp);
    const session = await signInToPortal(testApp, user.userName);
    const verifier = client.randomPKCECodeVerifier();
    const redirect = 'http://127.0.0.1:49152/callback';
    const browser = new Browser(testApp.app);
    const started = await browser.request(
      'GET',
      client.buildAuthorizationUrl(launcher, {
        redirect_uri: redirect,
        scope: 'openid offline_access',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }),
    );
    const uid = started.headers.location!.split('/').pop()!;
    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    const back = await browser.request('GET', finished.json().url as string);
    const callback = new URL(back.headers.location!);
    expect(callback.origin + callback.pathname).toBe(redirect);
    const tokens = await client.authorizationCodeGrant(launcher, callback, {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    expect(tokens.claims()?.sub).toBe(user.id);
    expect(tokens.refresh_token).toBeTruthy();
    // Another loopback address is not the declared one.
    const elsewhere = await browser.request(
      'GET',
      client.buildAuthorizationUrl(launcher, {
        redirect_uri: 'http://localhost:49152/callback',
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }),
    );
    expect(elsewhere.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('gives no refresh token to a client that does not declare the grant, offline_access or not', async () => {
    const shop = await discoverSite(testApp.app, 'shop');
    const user = await createUser(testApp);
    const session = await signInToPortal(testApp, user.userName);
    const tokens = await signInToSite(testApp.app, shop, session, 'openid offline_access');
    expect(tokens.claims()?.sub).toBe(user.id);
    expect(tokens.refresh_token).toBeUndefined();
    // The site that declares it gets one, without asking for offline_access at all.
    const hosting = await signInToSite(testApp.app, config, session);
    expect(hosting.refresh_token).toBeTruthy();
  });

  it('says in amr how the person signed in: pwd, otp, hwk, and yandex for Yandex ID', async () => {
    const cases = [
      {
        signIn: { method: 'password', amr: ['pwd', 'otp'] },
        amr: ['pwd', 'otp'],
        twoFactors: true,
      },
      { signIn: { method: 'passkey', amr: ['hwk'] }, amr: ['hwk'], twoFactors: true },
      { signIn: { method: 'yandex', amr: ['ext'] }, amr: ['yandex'], twoFactors: false },
      {
        signIn: { method: 'yandex', amr: ['ext', 'otp'] },
        amr: ['yandex', 'otp'],
        twoFactors: true,
      },
    ] as const;
    const { app } = testApp;
    for (const { signIn: event, amr, twoFactors } of cases) {
      const user = await createUser(testApp);
      // The session with its sign-in as the sign-in policy keeps it.
      const { headers } = await signIn(testApp, user.id, {
        userAgent: `amr-${event.method}`,
        signIn: { method: event.method, amr: [...event.amr] },
      });
      const tokens = await signInToSite(app, config, headers);
      expect(tokens.claims()?.amr, event.method).toEqual(amr);
      expect(tokens.claims()?.acr).toBe(twoFactors ? ACR.twoFactors : ACR.oneFactor);
    }
  });

  it('gives each session its own amr: two sign-ins of one browser at the same instant', async () => {
    const { app, clock } = testApp;
    const user = await createUser(testApp);
    // The clock stands still: both sessions start, and both sign-ins are logged, at one instant
    // from one user agent, so the log alone cannot tell which entry is whose.
    const withPassword = await signInToPortal(testApp, user.userName);
    const secret = await turnOnAuthenticator(testApp, withPassword);
    // The next step's code: the step of this instant was spent turning the authenticator on.
    const code = totpCode(secret, new Date(clock.now().getTime() + TOTP_STEP_MS));
    const login = await app.inject({
      method: 'POST',
      url: `${AUTH_API}/login`,
      payload: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD, twoFactorCode: code },
    });
    expect(login.statusCode, login.body).toBe(200);
    const withCode = { authorization: `Bearer ${login.json().token as string}` };

    const second = await signInToSite(app, config, withCode);
    expect(second.claims()?.amr).toEqual(['pwd', 'otp']);
    expect(second.claims()?.acr).toBe(ACR.twoFactors);
    const first = await signInToSite(app, config, withPassword);
    expect(first.claims()?.amr).toEqual(['pwd']);
    expect(first.claims()?.acr).toBe(ACR.oneFactor);
  });

  it('ends the provider session from its confirmation form (a form body the portal reads first)', async () => {
    const user = await createUser(testApp);
    const session = await signInToPortal(testApp, user.userName);
    const browser = new Browser(testApp.app);
    await authorize(browser, session, await pkceParameters());
    const page = await browser.request('GET', '/oidc/session/end');
    expect(page.statusCode).toBe(200);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
    expect(xsrf).toBeTruthy();
    const confirmed = await browser.request(
      'POST',
      '/oidc/session/end/confirm',
      { 'content-type': 'application/x-www-form-urlencoded' },
      `xsrf=${encodeURIComponent(xsrf!)}&logout=yes`,
    );
    expect(confirmed.statusCode, confirmed.body).toBe(303);
    expect(confirmed.headers.location).toMatch(/\/oidc\/session\/end\/success/);
    // A wrong form is the library's refusal, not a crash.
    const forged = await testApp.app.inject({
      method: 'POST',
      url: '/oidc/session/end/confirm',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'xsrf=forged&logout=yes',
    });
    expect(forged.statusCode).toBe(400);
  });

  it('refuses an account the portal refuses: blocked, unconfirmed, waiting for deletion', async () => {
    const { app, database } = testApp;
    const cases = [
      { change: { blockedAt: new Date() }, status: 403, reason: 'account_blocked' },
      { change: { confirmedAt: null }, status: 403, message: OIDC_MESSAGES.unconfirmed },
    ];
    for (const { change, status, ...answer } of cases) {
      const user = await createUser(testApp);
      const session = await signInToPortal(testApp, user.userName);
      // Straight to the row: the support's block also ends the sessions, which would 401 first.
      await database.db.update(users).set(change).where(eq(users.id, user.id));
      const browser = new Browser(app);
      const uid = await begin(browser, await pkceParameters());
      const refused = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
      expect(refused.statusCode, refused.body).toBe(status);
      expect(refused.json()).toMatchObject(answer);
    }
    // Scheduling ends every session and a sign-in cancels it: only a session made in between
    // (a race) meets this refusal.
    const user = await createUser(testApp);
    await app.deps.accountDeletion.schedule(user.id, NO_CLIENT);
    const { headers: session } = await signIn(testApp, user.id);
    const browser = new Browser(app);
    const uid = await begin(browser, await pkceParameters());
    const refused = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: OIDC_MESSAGES.deletionScheduled });
  });

  it('asks for a fresh sign-in when the site says prompt=login or max_age, and takes one', async () => {
    const { clock } = testApp;
    // The provider keeps the real time: the portal's clock is set to it, give or take.
    const setClock = (offsetMs: number) => clock.advance(Date.now() + offsetMs - +clock.now());
    const user = await createUser(testApp);
    setClock(-60_000);
    const old = await signInToPortal(testApp, user.userName);
    setClock(0);
    for (const more of [{ prompt: 'login' }, { max_age: '30' }] as Record<string, string>[]) {
      const browser = new Browser(testApp.app);
      const uid = await begin(browser, await pkceParameters(more));
      const refused = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, old);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        message: OIDC_MESSAGES.signInAgain,
        reason: 'sign_in_again',
      });
      // Signed in again, after the site asked: accepted.
      setClock(2_000);
      const fresh = await signInToPortal(testApp, user.userName);
      const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, fresh);
      expect(finished.statusCode, finished.body).toBe(200);
      setClock(0);
    }
  });

  it('asks prompt=login for a sign-in again even when the session the browser signed in to sites with is of the same second', async () => {
    // The interaction's start is known to the second (the library's `iat`); a session made in
    // that second, before it, would pass a comparison of times. The one this browser's library
    // session signed in with is the one prompt=login must not take, however recent.
    const { clock } = testApp;
    clock.advance(Date.now() + 2_000 - +clock.now());
    const user = await createUser(testApp);
    const session = await signInToPortal(testApp, user.userName);
    const browser = new Browser(testApp.app);
    await authorize(browser, session, await pkceParameters());
    const uid = await begin(browser, await pkceParameters({ prompt: 'login' }));
    const refused = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ reason: 'sign_in_again' });
    const fresh = await signInToPortal(testApp, user.userName);
    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, fresh);
    expect(finished.statusCode, finished.body).toBe(200);
    clock.advance(Date.now() - +clock.now());
  });

  it('finishes prompt=login after the web app ended the old session, and with it the library’s session of this browser', async () => {
    const user = await createUser(testApp);
    const old = await signInToPortal(testApp, user.userName);
    const browser = new Browser(testApp.app);
    await authorize(browser, old, await pkceParameters());
    const verifier = client.randomPKCECodeVerifier();
    const uid = await begin(browser, {
      ...(await pkceParameters({ prompt: 'login' })),
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
    });
    const refused = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, old);
    expect(refused.statusCode, refused.body).toBe(409);
    // What the web app does on that answer: signs the old session out (which ends the library's
    // session it signed in to sites with), then the person signs in again.
    const signedOut = await testApp.app.inject({
      method: 'POST',
      url: `${AUTH_API}/logout`,
      headers: old,
    });
    expect(signedOut.statusCode).toBe(200);
    // The person signs in again now: the portal's clock catches up with the library's real time,
    // else the new session would seem older than the interaction's start.
    testApp.clock.advance(Math.max(0, Date.now() - +testApp.clock.now()));
    const fresh = await signInToPortal(testApp, user.userName);
    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, fresh);
    expect(finished.statusCode, finished.body).toBe(200);
    const back = await browser.request('GET', finished.json().url as string);
    expect(back.statusCode, back.body).toBe(303);
    const tokens = await client.authorizationCodeGrant(config, new URL(back.headers.location!), {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    expect(tokens.claims()?.sub).toBe(user.id);
  });
});

describe('the OpenID provider refuses', () => {
  let testApp: TestApp;
  let config: client.Configuration;
  let browser: Browser;
  const challenge = { code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' };

  beforeAll(async () => {
    testApp = await createTestApp({ config: { OIDC_CLIENTS: clientsSetting(CLIENTS) } });
    config = await client.discovery(new URL(ISSUER), 'hosting', SECRET, undefined, {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch(testApp.app),
    });
    browser = new Browser(testApp.app);
  });

  const start = (parameters: Record<string, string>) =>
    browser.request(
      'GET',
      client.buildAuthorizationUrl(config, {
        scope: 'openid',
        redirect_uri: CALLBACK,
        ...parameters,
      }),
    );
  /** The error the site is sent back with. */
  const errorAtSite = (location: string | undefined) => {
    const url = new URL(location!);
    expect(url.origin + url.pathname).toBe(CALLBACK);
    return url.searchParams.get('error');
  };

  it('a redirect_uri the client did not declare, without sending the browser there', async () => {
    const response = await start({
      redirect_uri: 'https://evil.example/callback',
      ...challenge,
      code_challenge_method: 'S256',
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it('an authorization without PKCE', async () => {
    const response = await start({});
    expect(response.statusCode).toBe(303);
    expect(errorAtSite(response.headers.location)).toBe('invalid_request');
  });

  it('PKCE with the plain method', async () => {
    const response = await start({
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'plain',
    });
    expect(response.statusCode).toBe(303);
    expect(errorAtSite(response.headers.location)).toBe('invalid_request');
  });

  it('an interaction finished without its browser, or without a portal session', async () => {
    const started = await start({ ...challenge, code_challenge_method: 'S256' });
    const uid = started.headers.location!.split('/').pop()!;
    const user = await createUser(testApp);
    const session = await signInToPortal(testApp, user.userName);
    // Another browser: no interaction cookie.
    const stranger = await testApp.app.inject({
      method: 'POST',
      url: `/oidc/interaction/${uid}/sign-in`,
      headers: session,
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toEqual({ message: OIDC_MESSAGES.interactionGone });
    const unsigned = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`);
    expect(unsigned.statusCode).toBe(401);
  });
});

it('stops the start on a client the library would refuse, one line each', async () => {
  const database = await createTestDatabase();
  const nativeOnly = { token_endpoint_auth_method: 'none', application_type: 'web' } as const;
  const clients = [
    { ...nativeOnly, client_id: 'ok', redirect_uris: [CALLBACK] },
    { ...nativeOnly, client_id: 'scheme', redirect_uris: ['com.example.launcher:/callback'] },
  ];
  try {
    const start = buildApp({
      config: testConfig({ OIDC_CLIENTS: clientsSetting(clients) }),
      database,
      logStream: { write: () => {} },
    });
    const refusal = await start.then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).problems).toEqual([
      expect.stringMatching(/^OIDC_CLIENTS\.1: .*redirect_uris/),
    ]);
  } finally {
    await database.close();
  }
});

describe('a rotation of the signing keys', () => {
  it('reaches the running provider: published first, signing after the delay, the old key gone after its tokens', async () => {
    const clock = new ManualClock(new Date());
    const testApp = await createTestApp({
      clock,
      config: { OIDC_CLIENTS: clientsSetting(CLIENTS) },
    });
    const { app, database } = testApp;
    const site = await discoverSite(app);
    const session = await signInToPortal(testApp, (await createUser(testApp)).userName);
    const published = async () =>
      (await app.inject({ url: '/oidc/jwks' })).json().keys as {
        kid: string;
        key_ops?: string[];
      }[];
    /** The ID token's key, checked against the published one (RS256, a site's default). */
    const signedWith = async () => {
      const tokens = await signInToSite(app, site, session);
      const [header, payload, signature] = tokens.id_token!.split('.');
      const { kid, alg } = JSON.parse(Buffer.from(header!, 'base64url').toString());
      expect(alg).toBe('RS256');
      const jwk = (await published()).find((key) => key.kid === kid);
      expect(jwk, `${kid} is published`).toBeDefined();
      const isValid = verify(
        'RSA-SHA256',
        Buffer.from(`${header}.${payload}`),
        createPublicKey({ key: jwk as JsonWebKeyInput['key'], format: 'jwk' }),
        Buffer.from(signature!, 'base64url'),
      );
      expect(isValid).toBe(true);
      return kid as string;
    };

    const oldKid = await signedWith();
    expect(await published()).toHaveLength(2);
    const rotated = await database.db.transaction((tx) => app.deps.oidcSigningKeys.rotate(tx));
    const newKid = rotated!.added.find((key) => key.alg === 'RS256')!.kid;
    // Not yet re-read: the running provider knows nothing of it.
    expect((await published()).map((key) => key.kid)).not.toContain(newKid);
    expect(await app.deps.oidcProvider.refresh()).toBe(true);
    expect(await app.deps.oidcProvider.refresh()).toBe(false);
    expect(await published()).toHaveLength(4);
    expect((await published()).find((key) => key.kid === newKid)?.key_ops).toEqual(['verify']);
    expect(await signedWith()).toBe(oldKid);

    clock.advance(ACTIVATION_DELAY_MS);
    expect(await app.deps.oidcProvider.refresh()).toBe(true);
    expect(await signedWith()).toBe(newKid);
    expect((await published()).map((key) => key.kid)).toContain(oldKid);

    clock.advance(PUBLISHED_AFTER_RETIREMENT_MS);
    expect(await app.deps.oidcProvider.refresh()).toBe(true);
    expect((await published()).map((key) => key.kid)).not.toContain(oldKid);
    expect(await published()).toHaveLength(2);
    expect(await signedWith()).toBe(newKid);
  });
});
