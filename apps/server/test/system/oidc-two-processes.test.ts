/**
 * The OpenID Provider on two processes sharing one database and one Redis: a sign-in to a site
 * that moves between them at every step, and parallel uses of one code and one refresh token,
 * half to each process. The site is openid-client; the browser is played by hand over HTTP.
 */
import { spawn } from 'node:child_process';
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { PAGE_TEXTS } from '../../src/modules/oidc/pages.js';
import { LIBRARY_LIMITS, rateLimitedAnswer } from '../../src/modules/oidc/routes.js';
import { RELOAD_EVERY_S } from '../../src/modules/oidc/signing-keys.js';
import { SERVER_ROOT } from '../../src/paths.js';
import { xsrfOnPage } from '../support/oidc-relying-party.js';
import { CALLBACK, CLIENTS, ISSUER, SECRET } from '../support/oidc-site.js';
import { REDIS_URL, SYSTEM_SECRET_KEY } from '../support/services.js';
import { call, randomClientIp } from '../support/system/http.js';
import { createPortalUser, login } from '../support/system/portal.js';
import type { ServerProcess } from '../support/system/server-process.js';
import { setupTwoProcesses } from '../support/system/two-processes.js';
import { waitFor } from '../support/wait-for.js';

const PARALLEL = 100;

// One issuer for both: a site sees one provider, whichever process answers.
const portal = setupTwoProcesses({ PUBLIC_URL: ISSUER, OIDC_CLIENTS: JSON.stringify(CLIENTS) });

/** Sends what is addressed to the issuer to `server`, from the test's client address. */
function fetchVia(server: () => ServerProcess, ip: string): client.CustomFetch {
  return (url, options) => {
    const target = new URL(url);
    const headers = new Headers(options.headers as ConstructorParameters<typeof Headers>[0]);
    headers.set('x-forwarded-for', ip);
    return fetch(`${server().url}${target.pathname}${target.search}`, {
      method: options.method,
      headers,
      body: options.body as RequestInit['body'],
      redirect: 'manual',
    });
  };
}

/** A browser over real HTTP to either process: keeps its cookies, follows nothing itself. */
class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly ip: string) {}

  /** A request of this browser; `form`, when given, is posted as a form. */
  async request(
    server: ServerProcess,
    method: string,
    url: string,
    token?: string,
    form?: Record<string, string>,
  ) {
    const target = new URL(url, ISSUER);
    const headers: Record<string, string> = { 'x-forwarded-for': this.ip };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (token) headers.authorization = `Bearer ${token}`;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${server.url}${target.pathname}${target.search}`, {
      method,
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, value] = pair!.split('=');
      if (value) this.cookies.set(name!, value);
      else this.cookies.delete(name!);
    }
    return response;
  }
}

/**
 * A site's sign-in with each step on the process `steps` names: the authorization's start, the
 * interaction (forwarded to /auth and finished there), the resume. Answers the callback URL.
 */
async function authorize(
  steps: { start: ServerProcess; interaction: ServerProcess; resume: ServerProcess },
  site: client.Configuration,
  ip: string,
) {
  const user = await createPortalUser(portal.scratch);
  const token = await login(steps.interaction.url, user, ip);
  const browser = new Browser(ip);
  const verifier = client.randomPKCECodeVerifier();
  const started = await browser.request(
    steps.start,
    'GET',
    client
      .buildAuthorizationUrl(site, {
        redirect_uri: CALLBACK,
        scope: 'openid profile offline_access',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      })
      .toString(),
  );
  expect(started.status).toBe(303);
  const forwarded = await browser.request(
    steps.interaction,
    'GET',
    started.headers.get('location')!,
  );
  expect(forwarded.status).toBe(303);
  const uid = new URL(forwarded.headers.get('location')!, ISSUER).searchParams.get('interaction')!;
  const finished = await browser.request(
    steps.interaction,
    'POST',
    `/oidc/interaction/${uid}/sign-in`,
    token,
  );
  expect(finished.status, await finished.clone().text()).toBe(200);
  const back = await browser.request(
    steps.resume,
    'GET',
    ((await finished.json()) as { url: string }).url,
  );
  expect(back.status).toBe(303);
  return { user, callback: new URL(back.headers.get('location')!), verifier };
}

/** The site's configuration, its requests sent to whichever process `server` names at the time. */
function siteVia(server: () => ServerProcess, ip: string) {
  return client.discovery(new URL(ISSUER), 'hosting', SECRET, undefined, {
    execute: [client.allowInsecureRequests],
    [client.customFetch]: fetchVia(server, ip),
  });
}

/** The token endpoint called directly, `count` times at once, alternating between A and B. */
function parallelTokenRequests(count: number, ip: string, form: Record<string, string>) {
  const body = new URLSearchParams(form).toString();
  const authorization = `Basic ${Buffer.from(`hosting:${SECRET}`).toString('base64')}`;
  return Promise.all(
    Array.from({ length: count }, (_, index) =>
      call((index % 2 === 0 ? portal.a : portal.b).url, 'POST', '/oidc/token', {
        ip,
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
      }),
    ),
  );
}

describe('the provider on two processes', () => {
  it('finishes a sign-in started on A on B, exchanges the code on A and refreshes on B', async () => {
    const ip = randomClientIp();
    let target = portal.a;
    const site = await siteVia(() => target, ip);
    const { user, callback, verifier } = await authorize(
      { start: portal.a, interaction: portal.b, resume: portal.a },
      site,
      ip,
    );
    target = portal.a;
    const tokens = await client.authorizationCodeGrant(site, callback, {
      pkceCodeVerifier: verifier,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, amr: ['pwd'] });
    target = portal.b;
    const info = await client.fetchUserInfo(site, tokens.access_token, user.id);
    expect(info.preferred_username).toBe(user.userName);
    const refreshed = await client.refreshTokenGrant(site, tokens.refresh_token!);
    expect(refreshed.refresh_token).toBeTruthy();
    target = portal.a;
    expect((await client.fetchUserInfo(site, refreshed.access_token, user.id)).sub).toBe(user.id);
  });

  it(`gives one token set for ${PARALLEL} parallel exchanges of one code; the rest are a reuse and revoke it`, async () => {
    const ip = randomClientIp();
    const site = await siteVia(() => portal.a, ip);
    const { callback, verifier } = await authorize(
      { start: portal.b, interaction: portal.a, resume: portal.b },
      site,
      ip,
    );
    const answers = await parallelTokenRequests(PARALLEL, ip, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    });
    const issued = answers.filter((answer) => answer.status === 200);
    expect(issued).toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('invalid_grant');
    }
    // A parallel reuse is a reuse: the grant is revoked, the one token set with it.
    const { access_token, refresh_token } = issued[0]!.body;
    const me = await call(portal.b.url, 'GET', '/oidc/me', { ip, token: access_token });
    expect(me.status).toBe(401);
    const refreshed = await parallelTokenRequests(1, ip, {
      grant_type: 'refresh_token',
      refresh_token,
    });
    expect(refreshed[0]!.body.error).toBe('invalid_grant');
  });

  it(`gives one new token set for ${PARALLEL} parallel uses of one refresh token; the rest are a reuse and revoke the grant`, async () => {
    const ip = randomClientIp();
    const site = await siteVia(() => portal.b, ip);
    const { callback, verifier } = await authorize(
      { start: portal.a, interaction: portal.b, resume: portal.a },
      site,
      ip,
    );
    const tokens = await client.authorizationCodeGrant(site, callback, {
      pkceCodeVerifier: verifier,
    });
    const answers = await parallelTokenRequests(PARALLEL, ip, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token!,
    });
    const issued = answers.filter((answer) => answer.status === 200);
    expect(issued).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.error === 'invalid_grant')).toHaveLength(
      PARALLEL - 1,
    );
    // The new pair and the first access token went with the grant.
    for (const token of [issued[0]!.body.access_token, tokens.access_token]) {
      expect((await call(portal.a.url, 'GET', '/oidc/me', { ip, token })).status).toBe(401);
    }
    const again = await parallelTokenRequests(1, ip, {
      grant_type: 'refresh_token',
      refresh_token: issued[0]!.body.refresh_token,
    });
    expect(again[0]!.body.error).toBe('invalid_grant');
  });

  it(`counts the token endpoint's limit per address across both processes under ${PARALLEL} parallel requests`, async () => {
    const ip = randomClientIp();
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, index) =>
        call((index % 2 === 0 ? portal.a : portal.b).url, 'POST', '/oidc/token', {
          ip,
          body: 'grant_type=refresh_token&refresh_token=unknown&client_id=launcher',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      ),
    );
    const refused = answers.filter((answer) => answer.status === 429);
    const { limit } = LIBRARY_LIMITS.find((each) => each.name === 'token')!.perAddress;
    expect(PARALLEL - refused.length).toBe(limit);
    expect(refused[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused[0]!.body.error).toBe('temporarily_unavailable');
  });

  it('counts the device flow’s code page per address across both processes: the request past the limit in a minute is refused', async () => {
    // A browser guessing a launcher's code: the page once, then wrong codes, alternating between
    // A and B. The library's session of the page (in the database) goes along to either.
    const ip = randomClientIp();
    const browser = new Browser(ip);
    const { limit } = LIBRARY_LIMITS.find((each) => each.name === 'code-verification')!.perAddress;
    const onPage = await browser.request(portal.a, 'GET', '/oidc/device');
    expect(onPage.status).toBe(200);
    let xsrf = xsrfOnPage(await onPage.text());
    const processOf = (request: number) => (request % 2 === 0 ? portal.a : portal.b);
    for (let request = 2; request <= limit; request += 1) {
      const answer = await browser.request(processOf(request), 'POST', '/oidc/device', undefined, {
        xsrf,
        user_code: String(100_000_000 + request),
      });
      const html = await answer.text();
      expect(answer.status, `request ${request}`).toBe(200);
      expect(html).toContain(PAGE_TEXTS.codeWrong);
      xsrf = xsrfOnPage(html);
    }

    // The next one, on either process, is refused before the library reads the code.
    for (const server of [processOf(limit + 1), processOf(limit + 2)]) {
      const refused = await browser.request(server, 'POST', '/oidc/device', undefined, {
        xsrf,
        user_code: '123456789',
      });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('cache-control')).toBe('no-store');
      const retryAfter = refused.headers.get('retry-after')!;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(await refused.json()).toEqual(rateLimitedAnswer(Number(retryAfter)));
    }
    // The page itself too; another address is not held back by this one's count.
    expect((await browser.request(portal.b, 'GET', '/oidc/device')).status).toBe(429);
    for (const server of [portal.a, portal.b]) {
      expect((await call(server.url, 'GET', '/oidc/device', { ip: randomClientIp() })).status).toBe(
        200,
      );
    }
  });

  it('publishes a rotation made by the operator’s tool on both processes within a re-read period, without a restart', async () => {
    // The JWKS is application/jwk-set+json: read as text.
    const kids = async (server: ServerProcess) => {
      const { body } = await call(server.url, 'GET', '/oidc/jwks');
      return (JSON.parse(body as string).keys as { kid: string }[]).map((key) => key.kid);
    };
    const before = await kids(portal.a);
    expect(await kids(portal.b)).toEqual(before);
    const rotated = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/admin.ts', 'oidc-keys', 'rotate', '--operator', 'system-test'],
        {
          cwd: SERVER_ROOT,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            DATABASE_URL: portal.scratch.url,
            REDIS_URL,
            SECRET_KEY: SYSTEM_SECRET_KEY,
            OIDC_CLIENTS: JSON.stringify(CLIENTS),
            PUBLIC_URL: ISSUER,
          },
        },
      );
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(rotated.code, rotated.out).toBe(0);
    const timeoutMs = (RELOAD_EVERY_S + 15) * 1000;
    for (const server of [portal.a, portal.b]) {
      const now = await waitFor(
        'the new keys in the JWKS',
        async () => {
          const published = await kids(server);
          return published.length === 4 && published;
        },
        { timeoutMs, intervalMs: 500 },
      );
      // The old keys are still there (and still sign: the new ones only after the delay).
      expect(now).toEqual(expect.arrayContaining(before));
    }
    // Both processes answer the same set.
    expect((await kids(portal.a)).sort()).toEqual((await kids(portal.b)).sort());
  }, 120_000);
});
