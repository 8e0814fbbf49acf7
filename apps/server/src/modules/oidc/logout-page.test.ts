// RP-initiated logout's pages: the Russian confirm page and its CSP, whose form-action must let
// the confirm form's answer redirect to the site's post_logout_redirect_uri; the done page.
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser } from '../../../test/support/fixtures.js';
import {
  Browser,
  injectFetch,
  OIDC_ISSUER,
  xsrfOnPage,
} from '../../../test/support/oidc-relying-party.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { loadConfig } from '../../config.js';
import { PAGE_STYLE_HASH, PAGE_TEXTS } from './pages.js';

const SECRET = 'hosting-client-secret-0123456789abcdef';
const CALLBACK = 'https://hosting.example.com/oidc/callback';
const AFTER_LOGOUT = 'https://www.hosting.example.com/signed-out';
const CLIENTS = [
  {
    client_id: 'hosting',
    client_secret: SECRET,
    client_name: 'Хостинг',
    redirect_uris: [CALLBACK],
    post_logout_redirect_uris: [AFTER_LOGOUT],
    grant_types: ['authorization_code'],
  },
  {
    client_id: 'launcher',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    redirect_uris: ['http://127.0.0.1/callback'],
    grant_types: ['authorization_code'],
  },
];

describe('RP-initiated logout', () => {
  let testApp: TestApp;
  let hosting: client.Configuration;

  beforeAll(async () => {
    const { OIDC_CLIENTS } = loadConfig({
      SECRET_KEY: 'x'.repeat(32),
      OIDC_CLIENTS: JSON.stringify(CLIENTS),
    });
    testApp = await createTestApp({ config: { OIDC_CLIENTS } });
    hosting = await client.discovery(new URL(OIDC_ISSUER), 'hosting', SECRET, undefined, {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch(testApp.app),
    });
  });

  /** A browser signed in to the site through the provider: it holds the provider's session. */
  async function signedInBrowser() {
    const { headers: session } = await createSignedInUser(testApp);
    const browser = new Browser(testApp.app);
    const verifier = client.randomPKCECodeVerifier();
    const started = await browser.request(
      'GET',
      client.buildAuthorizationUrl(hosting, {
        redirect_uri: CALLBACK,
        scope: 'openid',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      }),
    );
    const uid = started.headers.location!.split('/').pop()!;
    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    expect(finished.statusCode, finished.body).toBe(200);
    const back = await browser.request('GET', finished.json().url as string);
    const tokens = await client.authorizationCodeGrant(hosting, new URL(back.headers.location!), {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    return { browser, idToken: tokens.id_token! };
  }

  it('asks in Russian, under a CSP whose form-action lets the answer return to the site', async () => {
    const { browser, idToken } = await signedInBrowser();
    const logoutUrl = client.buildEndSessionUrl(hosting, {
      id_token_hint: idToken,
      post_logout_redirect_uri: AFTER_LOGOUT,
      state: 'st',
    });
    const page = await browser.request('GET', logoutUrl);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(PAGE_TEXTS.logoutTitle);
    expect(page.body).toContain(`«Хостинг»</strong> ${PAGE_TEXTS.logoutAsks}`);
    expect(page.body).toContain(`>${PAGE_TEXTS.logout}<`);
    expect(page.body).toContain(`>${PAGE_TEXTS.stay}<`);
    expect(page.body).not.toMatch(/<script|\son[a-z]+=/i);

    const csp = Object.fromEntries(
      String(page.headers['content-security-policy'])
        .split(';')
        .map((directive) => {
          const [name, ...values] = directive.trim().split(/\s+/);
          return [name, values];
        }),
    );
    expect(csp['default-src']).toEqual(["'none'"]);
    expect(csp['style-src']).toEqual([PAGE_STYLE_HASH]);
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
    expect(csp['form-action']).toEqual([
      "'self'",
      'https://hosting.example.com',
      'https://www.hosting.example.com',
      'http://127.0.0.1:*',
    ]);
    expect(page.headers).toMatchObject({
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });

    const confirmed = await browser.request(
      'POST',
      '/oidc/session/end/confirm',
      {},
      { xsrf: xsrfOnPage(page.body), logout: 'yes' },
    );
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${AFTER_LOGOUT}?state=st`);
    // Where the form's answer went is allowed by form-action.
    expect(csp['form-action']).toContain(new URL(confirmed.headers.location!).origin);
  });

  it('says the sign-out is done, in Russian, when the site gave no address to return to', async () => {
    const done = await testApp.app.inject({ url: '/oidc/session/end/success?client_id=hosting' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(PAGE_TEXTS.loggedOutText);
    expect(done.body).toContain('«Хостинг»');
    expect(String(done.headers['content-security-policy'])).toContain("default-src 'none'");
  });
});
