// The limits on the library's endpoints (routes.ts LIBRARY_LIMITS) under 100 and more parallel
// requests from one address: exactly the limit goes through to the library, the rest get 429
// with Retry-After and an OAuth-shaped error; other addresses and a site's own count are apart.
import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { CALLBACK, CLIENTS, clientsSetting, SECRET } from '../../../test/support/oidc-site.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { LIBRARY_LIMITS } from './routes.js';

const testApp = createTestApp({ config: { OIDC_CLIENTS: clientsSetting(CLIENTS) } });
let address = 0;
const nextIp = () => `10.88.0.${++address}`;
const limitOf = (name: string) => LIBRARY_LIMITS.find((each) => each.name === name)!;
const basic = (clientId: string) =>
  `Basic ${Buffer.from(`${clientId}:${SECRET}`).toString('base64')}`;

/** `count` requests at once from `ip`; answers them. */
async function parallel(
  count: number,
  ip: string,
  request: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  },
) {
  const { app } = await testApp;
  return Promise.all(
    Array.from({ length: count }, () => app.inject({ ...request, remoteAddress: ip })),
  );
}

const tokenRequest = (headers: Record<string, string> = {}) => ({
  method: 'POST' as const,
  url: '/oidc/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  payload: 'grant_type=refresh_token&refresh_token=unknown&client_id=launcher',
});

describe('the limits on the library’s endpoints', () => {
  it('let exactly the limit of 100 parallel token requests from one address through; the rest get 429', async () => {
    const ip = nextIp();
    const { limit } = limitOf('token').perAddress;
    const answers = await parallel(100, ip, tokenRequest());
    const refused = answers.filter((answer) => answer.statusCode === 429);
    expect(answers.length - refused.length).toBe(limit);
    // The ones let through reached the library: its own refusal of the unknown token.
    for (const answer of answers.filter((each) => each.statusCode !== 429)) {
      expect(answer.json().error).toBe('invalid_grant');
    }
    for (const answer of refused) {
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.json()).toEqual({
        error: 'temporarily_unavailable',
        error_description: expect.stringMatching(
          /^Слишком много запросов\. Повторите через \d+ с$/,
        ),
      });
    }
    // Another address is counted apart.
    const [other] = await parallel(1, nextIp(), tokenRequest());
    expect(other!.statusCode).toBe(400);
  });

  it('count a registered site naming itself (Basic or the form) per site and address, far higher; an unknown name per address', async () => {
    const ip = nextIp();
    const site = await parallel(100, ip, tokenRequest({ authorization: basic('hosting') }));
    expect(site.filter((answer) => answer.statusCode === 429)).toHaveLength(0);
    const inForm = await parallel(100, ip, {
      ...tokenRequest(),
      payload: `grant_type=refresh_token&refresh_token=unknown&client_id=hosting&client_secret=${SECRET}`,
    });
    expect(inForm.filter((answer) => answer.statusCode === 429)).toHaveLength(0);
    expect(inForm[0]!.json().error).toBe('invalid_grant');
    const stranger = await parallel(100, ip, tokenRequest({ authorization: basic('nobody') }));
    expect(stranger.filter((answer) => answer.statusCode !== 429)).toHaveLength(
      limitOf('token').perAddress.limit,
    );
  });

  it('is an error openid-client reports as the protocol’s, with the status and the wait', async () => {
    const { app } = await testApp;
    const ip = nextIp();
    await parallel(limitOf('token').perAddress.limit, ip, tokenRequest());
    const config = await client.discovery(
      new URL('http://portal.test'),
      'launcher',
      undefined,
      client.None(),
      {
        execute: [client.allowInsecureRequests],
        [client.customFetch]: async (url, options) => {
          const target = new URL(url);
          const response = await app.inject({
            method: options.method as 'GET',
            url: `${target.pathname}${target.search}`,
            headers: options.headers,
            payload: options.body ? String(options.body) : undefined,
            remoteAddress: ip,
          });
          return new Response(response.rawPayload, {
            status: response.statusCode,
            headers: response.headers as Record<string, string>,
          });
        },
      },
    );
    await expect(client.refreshTokenGrant(config, 'unknown')).rejects.toMatchObject({
      error: 'temporarily_unavailable',
      status: 429,
    });
  });

  it('hold on every limited endpoint under 100 parallel requests', async () => {
    const cases = [
      {
        name: 'introspection',
        method: 'POST',
        url: '/oidc/token/introspection',
        payload: 'token=x',
      },
      { name: 'revocation', method: 'POST', url: '/oidc/token/revocation', payload: 'token=x' },
      { name: 'end-session', method: 'GET', url: '/oidc/session/end' },
      // Codes guessed at the device flow's page.
      { name: 'code-verification', method: 'POST', url: '/oidc/device', payload: 'user_code=1' },
      {
        name: 'authorization',
        method: 'GET',
        url: `/oidc/auth?client_id=hosting&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(CALLBACK)}`,
        count: 130,
      },
    ] as const;
    for (const { name, method, url, ...rest } of cases) {
      const count = 'count' in rest ? rest.count : 100;
      const payload = 'payload' in rest ? rest.payload : undefined;
      const headers = payload ? { 'content-type': 'application/x-www-form-urlencoded' } : undefined;
      const answers = await parallel(count, nextIp(), { method, url, headers, payload });
      const passed = answers.filter((answer) => answer.statusCode !== 429);
      expect(passed.length, name).toBe(limitOf(name).perAddress.limit);
      expect(count - passed.length, name).toBeGreaterThan(0);
    }
  });

  it('leave the discovery, the keys and userinfo alone', async () => {
    const ip = nextIp();
    for (const url of ['/.well-known/openid-configuration', '/oidc/jwks', '/oidc/me']) {
      const answers = await parallel(150, ip, { method: 'GET', url });
      expect(
        answers.filter((answer) => answer.statusCode === 429),
        url,
      ).toHaveLength(0);
    }
  });
});
