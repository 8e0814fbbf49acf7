import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Yandex ID (oauth.yandex.ru/authorize in the implicit flow and
 * login.yandex.ru/info), speaking their protocol: the authorize page sends the browser back to
 * `redirect_uri#access_token=…&token_type=bearer&expires_in=…&state=…` (or `#error=access_denied`),
 * and /info answers the account as JSON for `Authorization: OAuth <token>`. The account that
 * "signs in" next is chosen by the test.
 */

export interface FakeYandexAccount {
  id: string;
  login: string;
  default_email?: string;
  first_name?: string;
  last_name?: string;
}

export interface FakeYandex {
  /** YANDEX_AUTHORIZE_URL */
  readonly authorizeUrl: string;
  /** YANDEX_USERINFO_URL */
  readonly userInfoUrl: string;
  readonly clientId: string;
  /** The portal's settings that point its Yandex ID sign-in here. */
  readonly config: {
    YANDEX_CLIENT_ID: string;
    YANDEX_AUTHORIZE_URL: string;
    YANDEX_USERINFO_URL: string;
  };
  /** The account the next authorize signs in as. */
  signInAs(account: FakeYandexAccount): void;
  /** The next authorize answers `#error=access_denied` (the user pressed "cancel"). */
  denyNext(): void;
  /** Issues a token for an account directly (as if a browser had gone through authorize). */
  issueToken(account: FakeYandexAccount, clientId?: string): string;
  /** Authorization headers /info received, in order. */
  readonly infoRequests: { authorization: string | undefined }[];
  close(): Promise<void>;
}

export async function startFakeYandex(options: { clientId?: string } = {}): Promise<FakeYandex> {
  const clientId = options.clientId ?? `client-${randomBytes(4).toString('hex')}`;
  const tokens = new Map<string, { account: FakeYandexAccount; clientId: string }>();
  const infoRequests: { authorization: string | undefined }[] = [];
  let nextAccount: FakeYandexAccount | undefined;
  let denyNext = false;

  const issueToken = (account: FakeYandexAccount, forClient = clientId) => {
    const token = `y0_${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { account, clientId: forClient });
    return token;
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake-yandex');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(body));
    };

    if (url.pathname === '/authorize') {
      const redirectUri = url.searchParams.get('redirect_uri');
      const state = url.searchParams.get('state') ?? '';
      if (url.searchParams.get('client_id') !== clientId || !redirectUri) {
        response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        return response.end('invalid client_id or redirect_uri');
      }
      if (url.searchParams.get('response_type') !== 'token') {
        response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
        return response.end('unsupported response_type');
      }
      const fragment = new URLSearchParams();
      if (denyNext || !nextAccount) {
        denyNext = false;
        fragment.set('error', 'access_denied');
      } else {
        fragment.set('access_token', issueToken(nextAccount));
        fragment.set('token_type', 'bearer');
        fragment.set('expires_in', '31536000');
        fragment.set('cid', randomBytes(6).toString('hex'));
      }
      fragment.set('state', state);
      response.writeHead(302, { location: `${redirectUri}#${fragment.toString()}` });
      return response.end();
    }

    if (url.pathname === '/info') {
      const authorization = request.headers.authorization;
      infoRequests.push({ authorization });
      const match = /^OAuth (\S+)$/.exec(authorization ?? '');
      const grant = match ? tokens.get(match[1]!) : undefined;
      if (!grant) return json(401, { error: 'invalid_token' });
      const { account } = grant;
      return json(200, {
        id: account.id,
        login: account.login,
        client_id: grant.clientId,
        psuid: `1.${account.id}.psuid`,
        ...(account.default_email
          ? { default_email: account.default_email, emails: [account.default_email] }
          : {}),
        ...(account.first_name ? { first_name: account.first_name } : {}),
        ...(account.last_name ? { last_name: account.last_name } : {}),
        display_name: account.login,
        real_name: [account.first_name, account.last_name].filter(Boolean).join(' '),
      });
    }

    json(404, { error: 'not_found' });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;

  return {
    authorizeUrl: `${base}/authorize`,
    userInfoUrl: `${base}/info`,
    clientId,
    config: {
      YANDEX_CLIENT_ID: clientId,
      YANDEX_AUTHORIZE_URL: `${base}/authorize`,
      YANDEX_USERINFO_URL: `${base}/info`,
    },
    infoRequests,
    signInAs(account) {
      nextAccount = account;
    },
    denyNext() {
      denyNext = true;
    },
    issueToken,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
