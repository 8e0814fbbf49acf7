/**
 * The back-channel logout endpoint against logout tokens made by oidc-provider itself (the
 * library the portal is built on), with back-channel logout switched on: a provider of the
 * test's own, since what the portal sends and when is the portal's to test.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SiteConfig } from '../src/config.ts';
import { BACKCHANNEL_LOGOUT_PATH, createPortalSignIn } from '../src/portal-sign-in.ts';
import {
  createSessionStore,
  SESSION_COOKIE,
  type SessionStore,
  type SignedInUser,
} from '../src/sessions.ts';
import { createSite } from '../src/site.ts';

const SECRET = 'a-secret-of-the-test-0123456789abcdef';
let provider: Provider;
let sessions: SessionStore;
const servers: Server[] = [];
/** The logout tokens the site was sent, in order. */
const received: string[] = [];

/** A server on a free port whose handler is given later (each side must know the other's URL). */
async function listen(): Promise<{ origin: string; handle(listener: RequestListener): void }> {
  let listener: RequestListener = (_request, response) => response.writeHead(503).end();
  const server = createServer((request, response) => listener(request, response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, handle: (next) => (listener = next) };
}

beforeAll(async () => {
  const portal = await listen();
  const site = await listen();
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const client = (client_id: string) => ({
    client_id,
    client_secret: SECRET,
    redirect_uris: [`${site.origin}/callback`],
    backchannel_logout_uri: `${site.origin}${BACKCHANNEL_LOGOUT_PATH}`,
    backchannel_logout_session_required: true,
  });
  provider = new Provider(portal.origin, {
    clients: [client('example-site'), client('another-site')],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig' }] },
    features: { backchannelLogout: { enabled: true }, devInteractions: { enabled: false } },
    // The library posts to no loopback or private address (its guard against request forgery,
    // a dispatcher it adds); the site of this test is on 127.0.0.1.
    fetch: (url, init) => {
      const { dispatcher: _guard, ...options } = init as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, options);
    },
  });
  portal.handle(provider.callback());

  const config: SiteConfig = {
    portalUrl: new URL(portal.origin),
    siteUrl: new URL(site.origin),
    port: 0,
    host: undefined,
    clientId: 'example-site',
    clientSecret: SECRET,
  };
  sessions = createSessionStore();
  const handle = createSite({ config, sessions, portal: createPortalSignIn(config) });
  site.handle(async (request, response) => {
    // Keeps a copy of each logout token, to send one again.
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const token = new URLSearchParams(body.toString()).get('logout_token');
    if (token) received.push(token);
    const { method, url, headers } = request;
    const copy = Object.assign(Readable.from([body]), { method, url, headers });
    await handle(copy as unknown as IncomingMessage, response);
  });
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

let signedIn: { one: string; two: string; otherAccount: string };
beforeEach(() => {
  signedIn = {
    one: signIn('account-1', 'portal-session-1'),
    two: signIn('account-1', 'portal-session-2'),
    otherAccount: signIn('account-2', 'portal-session-3'),
  };
});

function signIn(sub: string, sid: string): string {
  const session = sessions.create();
  const user: SignedInUser = {
    sub,
    sid,
    idToken: 'id-token',
    idTokenClaims: { sub, sid },
    userinfo: { sub },
    accessToken: 'access-token',
    refreshToken: undefined,
    accessTokenExpiresAt: undefined,
  };
  session.user = user;
  return session.id;
}

const isSignedIn = (id: string) => sessions.fromCookie(`${SESSION_COOKIE}=${id}`) !== undefined;

async function logoutFrom(clientId: string, sub: string, sid: string) {
  // The call the library makes on a sign-out; its types leave it out.
  const client = (await provider.Client.find(clientId)) as unknown as {
    backchannelLogout(sub: string, sid: string): Promise<void>;
  };
  return client.backchannelLogout(sub, sid);
}

describe('POST /backchannel-logout', () => {
  it('ends the sessions of the sid the portal names, and only those', async () => {
    await logoutFrom('example-site', 'account-1', 'portal-session-1');

    expect(isSignedIn(signedIn.one)).toBe(false);
    expect(isSignedIn(signedIn.two)).toBe(true);
    expect(isSignedIn(signedIn.otherAccount)).toBe(true);
  });

  it('refuses a token for another site, and one sent again, with 400 and nothing ended', async () => {
    await expect(logoutFrom('another-site', 'account-1', 'portal-session-1')).rejects.toThrow(
      /got: 400/,
    );
    expect(isSignedIn(signedIn.one)).toBe(true);

    await logoutFrom('example-site', 'account-2', 'portal-session-3');
    expect(isSignedIn(signedIn.otherAccount)).toBe(false);
    const again = signIn('account-2', 'portal-session-3');
    const replay = await postLogoutToken(received.at(-1)!);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_request' });
    expect(isSignedIn(again)).toBe(true);
  });

  it('refuses an ID token (without the logout event, or with it and a nonce), no token, too long a request', async () => {
    const client = await provider.Client.find('example-site');
    const idToken = (events?: object) => {
      const token = new provider.IdToken({}, { client: client!, ctx: undefined });
      token.set('sub', 'account-1');
      token.set('sid', 'portal-session-1');
      token.set('nonce', 'n-1');
      token.set('jti', `id-token-${Math.random()}`);
      if (events) token.set('events', events);
      return token.issue({ use: 'idtoken' });
    };
    const plain = await postLogoutToken(await idToken());
    expect(await plain.json()).toMatchObject({ error_description: 'no back-channel logout event' });
    const withEvent = await postLogoutToken(
      await idToken({ 'http://schemas.openid.net/event/backchannel-logout': {} }),
    );
    expect(await withEvent.json()).toMatchObject({
      error_description: 'a logout token carries no nonce',
    });

    const empty = await fetch(new URL(BACKCHANNEL_LOGOUT_PATH, siteOrigin()), { method: 'POST' });
    expect(empty.status).toBe(400);
    const tooLong = await postLogoutToken('x'.repeat(100 * 1024));
    expect(await tooLong.json()).toMatchObject({ error_description: 'the request is too long' });
    expect(isSignedIn(signedIn.one)).toBe(true);
  });
});

function siteOrigin(): string {
  const { port } = servers[1]!.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

function postLogoutToken(token: string) {
  return fetch(new URL(BACKCHANNEL_LOGOUT_PATH, siteOrigin()), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ logout_token: token }),
  });
}
