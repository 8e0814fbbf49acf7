import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { errorAnswerSchema } from '@portal/contracts/common';
import { interactionParamsSchema, interactionSignInAnswerSchema } from '@portal/contracts/oidc';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enforceLimit, type LimitRule, type RateLimiter } from '../../adapters/rate-limit.js';
import type { OidcClientSetting } from '../../config.js';
import { notFound } from '../../http/app-error.js';
import { requireSession, sessionOf } from '../auth/index.js';
import type { OidcInteractions } from './interactions.js';
import type { LiveProvider } from './live-provider.js';
import { PAGE_STYLE_HASH } from './pages.js';
import { INTERACTION_PATH, LIBRARY_ROUTES, OIDC_PREFIX } from './provider.js';

const DISCOVERY_PATH = '/.well-known/openid-configuration';
const isLibraryPath = (path: string) =>
  Object.values(LIBRARY_ROUTES).some((route) => path === route || path.startsWith(`${route}/`));

const LIBRARY_ANSWER_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/**
 * The Content-Security-Policy of every library answer: nothing loads, the pages' one style
 * sheet by its hash (pages.ts), no frame. `script-src` holds a fresh nonce no page uses: the
 * library adds its own auto-submit script's hash to that directive (its form_post pages: the
 * typed-in link of the device flow, the authorization's `response_mode=form_post`), and nothing
 * else runs. A form may post to the portal and to the clients' addresses: the logout form's
 * answer redirects to a `post_logout_redirect_uri` and form_post posts to a `redirect_uri`, and
 * `form-action` also holds for where a form's answer redirects.
 */
export function libraryAnswerCsp(clients: readonly OidcClientSetting[]): (nonce: string) => string {
  const formAction = ["'self'", ...clientFormTargets(clients)].join(' ');
  return (nonce) =>
    [
      "default-src 'none'",
      `script-src 'nonce-${nonce}'`,
      `style-src ${PAGE_STYLE_HASH}`,
      `form-action ${formAction}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; ');
}

/**
 * The CSP sources of the clients' redirect addresses: an origin; a native client's loopback
 * address on any port (RFC 8252: the launcher picks its port at run time); a custom scheme.
 */
function clientFormTargets(clients: readonly OidcClientSetting[]): string[] {
  const sources = new Set<string>();
  for (const client of clients) {
    for (const uri of [...client.redirect_uris, ...client.post_logout_redirect_uris]) {
      const url = new URL(uri);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') sources.add(url.protocol);
      else if (client.application_type === 'native' && LOOPBACK_HOSTS.has(url.hostname))
        sources.add(`${url.protocol}//${url.hostname}:*`);
      else sources.add(url.origin);
    }
  }
  return [...sources];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Per client address: finishing a sign-in checks a session and an interaction. */
const SIGN_IN_LIMIT = { limit: 60, windowMs: 10 * 60_000 };

const MINUTE_MS = 60_000;

interface LibraryLimit {
  name: string;
  path: string;
  perAddress: LimitRule;
  perClientAtAddress?: LimitRule;
}

/** A limit on `path` per minute: per client address, and per site at an address when given. */
function perMinute(
  name: string,
  path: string,
  perAddress: number,
  perClientAtAddress?: number,
): LibraryLimit {
  return {
    name,
    path,
    perAddress: { limit: perAddress, windowMs: MINUTE_MS },
    ...(perClientAtAddress === undefined
      ? {}
      : { perClientAtAddress: { limit: perClientAtAddress, windowMs: MINUTE_MS } }),
  };
}

/**
 * The limits on the library's endpoints, counted before the library does any work. Each counts
 * per client address; the back-channel ones count a registered confidential client that names
 * itself (HTTP Basic, or `client_id` in the form; the library checks the secret: a site's server, where every
 * sign-in and refresh of its users comes from its one address) per client and address, with a
 * far larger limit. A public client (the launcher) runs on its users' devices: counted per
 * address. Never per client alone: a client's id is public, and a count anybody could fill would
 * lock the client out. The first matching prefix wins
 * (introspection and revocation live under the token endpoint's path).
 */
export const LIBRARY_LIMITS: readonly LibraryLimit[] = [
  perMinute('introspection', LIBRARY_ROUTES.introspection, 60, 3000),
  perMinute('revocation', LIBRARY_ROUTES.revocation, 60, 3000),
  perMinute('token', LIBRARY_ROUTES.token, 60, 3000),
  perMinute('device-authorization', LIBRARY_ROUTES.device_authorization, 30, 600),
  // The person's: typing the launcher's code, confirming, the return from the sign-in (a few
  // requests a device sign-in); what bounds guessing a code besides its ten minutes.
  perMinute('code-verification', LIBRARY_ROUTES.code_verification, 30),
  // The browser's: one sign-in to a site is two requests here (the start and the resume).
  perMinute('authorization', LIBRARY_ROUTES.authorization, 120),
  perMinute('end-session', LIBRARY_ROUTES.end_session, 30),
];

/**
 * The answer past a limit, shaped as the protocol's errors are, so an OAuth client reports it
 * as one: RFC 6749's `temporarily_unavailable` ("temporary overloading"), with `Retry-After`.
 * The description is Russian: on the browser's endpoints a person reads it.
 */
export function rateLimitedAnswer(retryAfterS: number) {
  return {
    error: 'temporarily_unavailable',
    error_description: `Слишком много запросов. Повторите через ${retryAfterS} с`,
  };
}

/**
 * The registered client a request names, in HTTP Basic or as the form's `client_id` (a secret
 * in the body, or a public client), if any; the library checks who it really is.
 */
function namedClientId(request: FastifyRequest, known: ReadonlySet<string>) {
  const named =
    basicName(request.headers.authorization) ??
    (typeof request.body === 'string' ? new URLSearchParams(request.body).get('client_id') : null);
  return named !== null && known.has(named) ? named : null;
}

function basicName(authorization: string | undefined) {
  if (!authorization?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(authorization.slice(6), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Counts the request against its endpoint's limit; answers the seconds to wait when it is over,
 * or null.
 */
async function overLimit(
  limiter: RateLimiter,
  request: FastifyRequest,
  path: string,
  sites: ReadonlySet<string>,
): Promise<number | null> {
  const rule = LIBRARY_LIMITS.find(
    (each) => path === each.path || path.startsWith(`${each.path}/`),
  );
  if (!rule) return null;
  const clientId = rule.perClientAtAddress ? namedClientId(request, sites) : null;
  const [key, limit] = clientId
    ? [`oidc-${rule.name}:client:${clientId}:ip:${request.ip}`, rule.perClientAtAddress!]
    : [`oidc-${rule.name}:ip:${request.ip}`, rule.perAddress];
  const { count, resetInMs } = await limiter.hit(key, limit);
  return count > limit.limit ? Math.max(1, Math.ceil(resetInMs / 1000)) : null;
}

/**
 * The request as the library reads it after the portal has read its form (for the limits to see
 * the client it names): the same request, its body to be read once more. The library takes a
 * body read already too (`req.body`), but says so in the log of every process.
 */
function toReadAgain(raw: IncomingMessage, body: string): IncomingMessage {
  const { rawHeaders, method, url, httpVersion, socket } = raw;
  // The body may have changed (`withAsciiUserCode`): the library reads as many bytes as told.
  const headers = { ...raw.headers, 'content-length': String(Buffer.byteLength(body)) };
  const again = Readable.from([Buffer.from(body)]);
  return Object.assign(again, { headers, rawHeaders, method, url, httpVersion, socket }) as never;
}

/**
 * The device flow's form with the user code's full-width digits (an East Asian layout types them)
 * made ASCII: the library drops every character outside [A-Za-z0-9_], those digits too, and would
 * answer that no such code exists. The spaces and dashes people type it drops itself, and what was
 * typed is shown again on a wrong code, so nothing else changes.
 */
function withAsciiUserCode(body: string): string {
  const form = new URLSearchParams(body);
  const typed = form.get('user_code');
  if (typed === null || typed === typed.normalize('NFKC')) return body;
  form.set('user_code', typed.normalize('NFKC'));
  return form.toString();
}

/**
 * The provider's own endpoints (discovery, `/oidc/*`): the library's Koa app answers them
 * itself, on the raw request and answer. The request body is left unread for it (no content
 * parser here), and it is told the client's address as the portal decided it (TRUSTED_PROXIES)
 * and the public address the portal is reached at (PUBLIC_URL), whatever the request said.
 */
export const providerRoutes: FastifyPluginAsync<{ provider: LiveProvider }> = async (
  app,
  { provider },
) => {
  const { config, rateLimiter } = app.deps;
  const publicUrl = new URL(config.PUBLIC_URL);
  const cspFor = libraryAnswerCsp(config.OIDC_CLIENTS);
  const sites = new Set(
    config.OIDC_CLIENTS.filter((client) => client.client_secret).map((client) => client.client_id),
  );
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  // A form is read here, for the limits to see the client it names; the library then reads it
  // again (`toReadAgain`). Any other body is left unread for it.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, body),
  );
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only the library's own endpoints (and what lies under them) go to it; any other address
    // here (the interaction's with a method it does not take, a path made of `..`) gets the
    // portal's JSON 404, not the library's plain-text one.
    const path = request.url.split('?')[0]!;
    if (path !== DISCOVERY_PATH && !isLibraryPath(path)) throw notFound();
    const retryAfterS = await overLimit(rateLimiter, request, path, sites);
    if (retryAfterS !== null) {
      return reply
        .code(429)
        .headers({ ...LIBRARY_ANSWER_HEADERS, 'retry-after': String(retryAfterS) })
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(JSON.stringify(rateLimitedAnswer(retryAfterS)));
    }
    const { headers } = request.raw;
    headers['x-forwarded-host'] = publicUrl.host;
    headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
    headers['x-forwarded-for'] = request.ip;
    // Set before the library answers: it reads the CSP back to add its script's hash.
    for (const [name, value] of Object.entries(LIBRARY_ANSWER_HEADERS)) {
      reply.raw.setHeader(name, value);
    }
    const nonce = randomBytes(16).toString('base64');
    reply.raw.setHeader('content-security-policy', cspFor(nonce));
    reply.hijack();
    const form =
      typeof request.body === 'string' && path === LIBRARY_ROUTES.code_verification
        ? withAsciiUserCode(request.body)
        : request.body;
    const req = typeof form === 'string' ? toReadAgain(request.raw, form) : request.raw;
    await provider.handle(req, reply.raw);
  };
  const schema = { hide: true };
  app.all(DISCOVERY_PATH, { schema }, answer);
  app.all(`${OIDC_PREFIX}/*`, { schema }, answer);
};

/**
 * The portal's part of the sign-in: the provider's interaction address forwards the browser to
 * `/auth`, and the web app, signed in, finishes the interaction with its session
 * (interactions.ts). Both live under the interaction's own path, so the provider's interaction
 * cookie (Path=/oidc/interaction/<uid>) comes along.
 */
export const interactionRoutes: FastifyPluginAsyncZod<{ interactions: OidcInteractions }> = async (
  app,
  { interactions },
) => {
  const { rateLimiter } = app.deps;

  app.get(
    `${INTERACTION_PATH}/:uid`,
    {
      schema: {
        tags: ['oidc'],
        summary: 'Вход на сайт бренда: отправляет браузер на /auth с номером входа',
        params: interactionParamsSchema,
        response: { 303: z.null().describe('На /auth?interaction=<uid>'), 400: errorAnswerSchema },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reply.redirect(`/auth?interaction=${encodeURIComponent(request.params.uid)}`, 303);
    },
  );

  app.post(
    `${INTERACTION_PATH}/:uid/sign-in`,
    {
      onRequest: requireSession,
      schema: {
        tags: ['oidc'],
        summary: 'Завершает вход на сайт бренда сессией кабинета; ответ — адрес, куда идёт браузер',
        security: [{ bearer: [] }],
        params: interactionParamsSchema,
        response: {
          200: interactionSignInAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema,
          409: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request, reply) => {
      await enforceLimit(rateLimiter, `oidc-sign-in:ip:${request.ip}`, SIGN_IN_LIMIT);
      reply.header('Cache-Control', 'no-store');
      const raw = { req: request.raw, res: reply.raw };
      return interactions.finishSignIn(raw, request.params.uid, sessionOf(request));
    },
  );
};
