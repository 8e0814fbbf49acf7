// The device authorization grant (RFC 8628) against the certified relying party library
// (openid-client as the launcher), the person's browser played by hand: the code page, the
// confirm page with its xsrf, the portal's own sign-in through the interaction bridge, the
// success page; and what must end with nothing granted (a wrong code, an expired device code, a
// refusal, a client without the grant).
import { and, eq, inArray, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { oidcModels } from './schema.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const CLIENTS = [
  {
    client_id: 'console',
    client_name: 'Лаунчер <для консоли>',
    application_type: 'native',
    token_endpoint_auth_method: 'none',
    grant_types: [DEVICE_GRANT, 'refresh_token'],
  },
  {
    client_id: 'hosting',
    client_secret: 'hosting-client-secret-0123456789abcdef',
    redirect_uris: ['https://hosting.example.com/oidc/callback'],
    grant_types: ['authorization_code'],
  },
];

/** The Russian texts as the page writes them (escaped). */
const onPage = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');

describe('the device authorization grant', () => {
  let testApp: TestApp;
  let launcher: client.Configuration;

  beforeAll(async () => {
    const { OIDC_CLIENTS } = loadConfig({
      SECRET_KEY: 'x'.repeat(32),
      OIDC_CLIENTS: JSON.stringify(CLIENTS),
    });
    testApp = await createTestApp({ config: { OIDC_CLIENTS } });
    launcher = await client.discovery(new URL(OIDC_ISSUER), 'console', undefined, client.None(), {
      execute: [client.allowInsecureRequests],
      [client.customFetch]: injectFetch(testApp.app),
    });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  /** The launcher starts the flow; its poll waits no interval here (the person is done first). */
  async function start() {
    const response = await client.initiateDeviceAuthorization(launcher, {
      scope: 'openid offline_access',
    });
    return { response: { ...response, interval: 0 }, userCode: response.user_code };
  }

  /** What the console client holds, besides the device codes: grants and tokens. */
  async function grantedToConsole() {
    const rows = await testApp.database.db
      .select({ kind: oidcModels.kind })
      .from(oidcModels)
      .where(
        and(
          inArray(oidcModels.kind, ['Grant', 'AccessToken', 'RefreshToken']),
          eq(sql`${oidcModels.payload}->>'clientId'`, 'console'),
        ),
      );
    return rows.length;
  }

  /** The code page, then the code as typed: answers the confirm page and the browser. */
  async function typeCode(typed: string) {
    const browser = new Browser(testApp.app);
    const input = await browser.request('GET', '/oidc/device');
    expect(input.statusCode).toBe(200);
    const confirmPage = await browser.request(
      'POST',
      '/oidc/device',
      {},
      {
        xsrf: xsrfOnPage(input.body),
        user_code: typed,
      },
    );
    return { browser, confirmPage };
  }

  it('signs the launcher in: code typed by hand, confirmed, the portal sign-in, tokens', async () => {
    const { user, headers: session } = await createSignedInUser(testApp);
    const { response, userCode } = await start();
    expect(userCode).toMatch(/^\d{3}-\d{3}-\d{3}$/);
    expect(response.verification_uri).toBe(`${OIDC_ISSUER}/oidc/device`);
    expect(response.verification_uri_complete).toBe(
      `${OIDC_ISSUER}/oidc/device?user_code=${userCode}`,
    );

    const browser = new Browser(testApp.app);
    const input = await browser.request('GET', response.verification_uri);
    expect(input.headers['content-type']).toMatch(/^text\/html/);
    expect(input.body).toContain(PAGE_TEXTS.deviceEnterCode);
    expect(input.body).toContain('lang="ru"');

    // Typed with spaces instead of dashes: the library takes it.
    const typed = userCode.replaceAll('-', ' ');
    const confirmPage = await browser.request(
      'POST',
      '/oidc/device',
      {},
      { xsrf: xsrfOnPage(input.body), user_code: typed },
    );
    expect(confirmPage.statusCode).toBe(200);
    expect(confirmPage.body).toContain(PAGE_TEXTS.confirm);
    expect(confirmPage.body).toContain(PAGE_TEXTS.cancel);
    // Who asks, escaped; the code to compare, as the device shows it.
    expect(confirmPage.body).toContain('«Лаунчер &lt;для консоли&gt;»');
    expect(confirmPage.body).not.toContain('<для консоли>');
    expect(confirmPage.body).toContain(`>${userCode}<`);

    const confirmed = await browser.request(
      'POST',
      '/oidc/device',
      {},
      { xsrf: xsrfOnPage(confirmPage.body), user_code: userCode, confirm: 'yes' },
    );
    expect(confirmed.statusCode).toBe(303);
    const interaction = await browser.request('GET', confirmed.headers.location!);
    expect(interaction.statusCode).toBe(303);
    const uid = new URL(interaction.headers.location!, OIDC_ISSUER).searchParams.get('interaction');
    expect(interaction.headers.location).toBe(`/auth?interaction=${uid}`);
    // Nothing granted before the person signed in.
    expect(await grantedToConsole()).toBe(0);

    const finished = await browser.request('POST', `/oidc/interaction/${uid}/sign-in`, session);
    expect(finished.statusCode, finished.body).toBe(200);
    const success = await browser.request('GET', finished.json().url as string);
    expect(success.statusCode).toBe(200);
    expect(success.body).toContain(PAGE_TEXTS.successText);

    const tokens = await client.pollDeviceAuthorizationGrant(launcher, response);
    expect(tokens.claims()).toMatchObject({ iss: OIDC_ISSUER, aud: 'console', sub: user.id });
    expect(tokens.refresh_token).toBeTruthy();
    const userInfo = await client.fetchUserInfo(launcher, tokens.access_token, user.id);
    expect(userInfo.sub).toBe(user.id);

    // The code is spent: typed again, it is refused in Russian.
    const again = await typeCode(userCode);
    expect(again.confirmPage.body).toContain(onPage(PAGE_TEXTS.codeUsed));
  });

  it.each([
    [
      'full-width digits, as an East Asian layout types them',
      (code: string) => code.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit))),
    ],
    ['pasted with spaces and a line break around it', (code: string) => ` ${code}\r\n`],
  ])('takes the code typed in %s', async (_how, type) => {
    const { userCode } = await start();
    const { confirmPage } = await typeCode(type(userCode));
    expect(confirmPage.statusCode).toBe(200);
    expect(confirmPage.body).toContain(PAGE_TEXTS.confirm);
    expect(confirmPage.body).toContain(`>${userCode}<`);
  });

  it('answers a wrong code with the Russian error on the code page, keeping what was typed', async () => {
    const { response } = await start();
    const wrong = response.user_code === '000-000-000' ? '000-000-001' : '000-000-000';
    const { confirmPage } = await typeCode(wrong);
    expect(confirmPage.statusCode).toBe(200);
    expect(confirmPage.body).toContain(onPage(PAGE_TEXTS.codeWrong));
    expect(confirmPage.body).toContain(`value="${wrong}"`);
    expect(confirmPage.body).not.toContain(PAGE_TEXTS.confirm);
    // A fresh anti-forgery value: the person can type again at once.
    expect(xsrfOnPage(confirmPage.body)).toBeTruthy();
    // What was typed comes back escaped.
    const hostile = await typeCode('"><img src=x onerror=alert(1)>');
    expect(hostile.confirmPage.body).toContain(onPage(PAGE_TEXTS.codeWrong));
    expect(hostile.confirmPage.body).toContain(
      'value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"',
    );
    expect(hostile.confirmPage.body).not.toContain('<img');
  });

  it('refuses an expired device code with expired_token, and its user code on the page', async () => {
    const before = await grantedToConsole();
    const { response, userCode } = await start();
    // The library's own time: the device code lives ten minutes (provider.ts `ttl.DeviceCode`).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 11 * 60_000 });
    const { confirmPage } = await typeCode(userCode);
    expect(confirmPage.body).toContain(onPage(PAGE_TEXTS.codeExpired));
    expect(confirmPage.body).not.toContain(PAGE_TEXTS.confirm);
    await expect(client.pollDeviceAuthorizationGrant(launcher, response)).rejects.toMatchObject({
      error: 'expired_token',
    });
    expect(await grantedToConsole()).toBe(before);
  });

  it('gives access_denied when the person presses «Отмена», and grants nothing', async () => {
    const before = await grantedToConsole();
    const { response, userCode } = await start();
    // Typed without its dash: the library takes it too.
    const { browser, confirmPage } = await typeCode(userCode.replaceAll('-', ''));
    expect(confirmPage.body).toContain(`>${userCode}<`);
    const cancelled = await browser.request(
      'POST',
      '/oidc/device',
      {},
      { xsrf: xsrfOnPage(confirmPage.body), user_code: userCode, abort: 'yes' },
    );
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.body).toContain(onPage(PAGE_TEXTS.aborted));
    await expect(client.pollDeviceAuthorizationGrant(launcher, response)).rejects.toMatchObject({
      error: 'access_denied',
    });
    // The refused code cannot be confirmed afterwards.
    const later = await typeCode(userCode);
    expect(later.confirmPage.body).toContain(onPage(PAGE_TEXTS.codeUsed));
    expect(await grantedToConsole()).toBe(before);
  });

  it('refuses the form without its anti-forgery value', async () => {
    const { userCode } = await start();
    const browser = new Browser(testApp.app);
    await browser.request('GET', '/oidc/device');
    const forged = await browser.request('POST', '/oidc/device', {}, { user_code: userCode });
    expect(forged.body).toContain(onPage(PAGE_TEXTS.failed));
    expect(forged.body).not.toContain(PAGE_TEXTS.confirm);
  });

  it('sends a form posted without a session of its own back to the code page, which starts one', async () => {
    const { userCode } = await start();
    // No cookie: the library's own answer would be a 500 (modules/oidc/provider.ts).
    const browser = new Browser(testApp.app);
    const posted = await browser.request('POST', '/oidc/device', {}, { user_code: userCode });
    expect(posted.statusCode).toBe(303);
    expect(new URL(String(posted.headers.location), OIDC_ISSUER).pathname).toBe('/oidc/device');
    const page = await browser.request('GET', String(posted.headers.location));
    expect(page.statusCode).toBe(200);
    expect(xsrfOnPage(page.body)).toBeTruthy();
  });

  it('refuses the device grant to a client not declared with it', async () => {
    const hosting = await client.discovery(
      new URL(OIDC_ISSUER),
      'hosting',
      'hosting-client-secret-0123456789abcdef',
      undefined,
      {
        execute: [client.allowInsecureRequests],
        [client.customFetch]: injectFetch(testApp.app),
      },
    );
    await expect(
      client.initiateDeviceAuthorization(hosting, { scope: 'openid' }),
    ).rejects.toMatchObject({
      error: 'invalid_request',
      error_description: `${DEVICE_GRANT} is not allowed for this client`,
    });
  });

  it('gives every page a strict CSP that allows its style sheet and nothing else', async () => {
    const browser = new Browser(testApp.app);
    const input = await browser.request('GET', '/oidc/device');
    const csp = String(input.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src ${PAGE_STYLE_HASH}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/form-action 'self'( |;|$)/);
    expect(input.body).not.toMatch(/<script|\son[a-z]+=/i);
    // The typed-in link's page posts itself with the library's script, allowed by its hash.
    const { userCode } = await start();
    const link = await browser.request('GET', `/oidc/device?user_code=${userCode}`);
    expect(link.body).toContain('<script>');
    expect(String(link.headers['content-security-policy'])).toMatch(
      /script-src 'nonce-[^']+' 'sha256-[^']+'/,
    );
  });
});
