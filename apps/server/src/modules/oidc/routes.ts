import { errorAnswerSchema } from '@portal/contracts/common';
import { interactionParamsSchema, interactionSignInAnswerSchema } from '@portal/contracts/oidc';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import { notFound } from '../../http/app-error.js';
import { requireSession, sessionOf } from '../auth/index.js';
import type { OidcInteractions } from './interactions.js';
import { INTERACTION_PATH, LIBRARY_ROUTES, OIDC_PREFIX } from './provider.js';

const DISCOVERY_PATH = '/.well-known/openid-configuration';
const isLibraryPath = (path: string) =>
  Object.values(LIBRARY_ROUTES).some((route) => path === route || path.startsWith(`${route}/`));

const LIBRARY_ANSWER_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Per client address: finishing a sign-in checks a session and an interaction. */
const SIGN_IN_LIMIT = { limit: 60, windowMs: 10 * 60_000 };

/**
 * The provider's own endpoints (discovery, `/oidc/*`): the library's Koa app answers them
 * itself, on the raw request and answer. The request body is left unread for it (no content
 * parser here), and it is told the client's address as the portal decided it (TRUSTED_PROXIES)
 * and the public address the portal is reached at (PUBLIC_URL), whatever the request said.
 */
export const providerRoutes: FastifyPluginAsync<{ provider: Provider }> = async (
  app,
  { provider },
) => {
  const publicUrl = new URL(app.deps.config.PUBLIC_URL);
  const callback = provider.callback();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    // Only the library's own endpoints (and what lies under them) go to it; any other address
    // here (the interaction's with a method it does not take, a path made of `..`) gets the
    // portal's JSON 404, not the library's plain-text one.
    const path = request.url.split('?')[0]!;
    if (path !== DISCOVERY_PATH && !isLibraryPath(path)) throw notFound();
    const { headers } = request.raw;
    headers['x-forwarded-host'] = publicUrl.host;
    headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
    headers['x-forwarded-for'] = request.ip;
    // The portal's headers that fit every answer of the library (its end-session page submits
    // itself with an inline script, so the portal's CSP is not one of them yet).
    for (const [name, value] of Object.entries(LIBRARY_ANSWER_HEADERS)) {
      reply.raw.setHeader(name, value);
    }
    reply.hijack();
    await callback(request.raw, reply.raw);
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
      return interactions.finishSignIn(raw, request.params.uid, sessionOf(request).id);
    },
  );
};
