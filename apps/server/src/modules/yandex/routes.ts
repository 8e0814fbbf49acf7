import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import { ACCOUNT_BLOCKED, PORTAL_ONLY, PROOF_REQUIRED } from '@portal/contracts/messages';
import {
  yandexCallbackQuerySchema,
  yandexExchangeAnswerSchema,
  yandexExchangeRequestSchema,
  yandexUrlAnswerSchema,
} from '@portal/contracts/yandex';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import {
  assertRecentlyProven,
  bearerToken,
  requireRecentProof,
  requireSession,
  sessionOf,
} from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { YANDEX_MESSAGES } from './messages.js';
import { unlinkYandex } from './yandex-accounts.js';
import type { FlowCookie, YandexSignIn } from './yandex-sign-in.js';

export const FLOW_COOKIE = 'portal_yandex_flow';
const COOKIE_PATH = '/auth/yandex';
/** Per client address, for each of the two steps that check something secret. */
const LIMIT = { limit: 30, windowMs: 10 * 60_000 };

/**
 * Yandex ID (the flow is described in yandex-sign-in.ts): `getUrl` starts a flow, the callback
 * finishes it at Yandex's return, `exchange` turns its one-time code into a session. The routes
 * own the flow cookie.
 */
export const yandexRoutes: FastifyPluginAsyncZod<{ yandex: YandexSignIn }> = async (
  app,
  { yandex },
) => {
  const { config, db, clock, rateLimiter, securityLog } = app.deps;
  const isHttps = config.PUBLIC_URL.startsWith('https://');
  // Max-Age=0 clears it. Not `reply.clearCookie`, which adds an `Expires` in 1970: the cookie
  // keeps the attributes it always had.
  const setFlowCookie = (reply: FastifyReply, value: string, maxAgeSeconds: number) =>
    reply.setCookie(FLOW_COOKIE, value, {
      path: COOKIE_PATH,
      maxAge: maxAgeSeconds,
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps,
    });
  const flowOf = (request: FastifyRequest, reply: FastifyReply): FlowCookie => ({
    id: flowCookie(request),
    set: (value, maxAgeSeconds) => setFlowCookie(reply, value, maxAgeSeconds),
  });

  app.get(
    '/auth/yandex/getUrl',
    {
      schema: {
        tags: ['yandex'],
        summary:
          'Адрес входа через Яндекс ID (с токеном: привязка к аккаунту, нужен свежий Auth/proof)',
        security: [{}, { bearer: [] }],
        response: {
          200: yandexUrlAnswerSchema,
          403: errorAnswerSchema.describe(`${PORTAL_ONLY}; ${PROOF_REQUIRED}`),
          503: errorAnswerSchema,
        },
      },
    },
    async (request, reply) => {
      // Signed in: the answer will link Yandex ID to this user instead of signing in.
      const url = await yandex.start(bearerToken(request), flowOf(request, reply), (session) =>
        assertRecentlyProven(request, session),
      );
      reply.header('Cache-Control', 'no-store');
      return { status: 'ok' as const, data: { url } };
    },
  );

  app.get(
    '/auth/yandex/callback',
    {
      schema: {
        tags: ['yandex'],
        summary: 'Возврат из Яндекс ID (фрагмент /oauth как query): вход, привязка или создание',
        querystring: yandexCallbackQuerySchema,
        response: {
          // Every outcome, a refusal too, sends the browser back to /auth or /profile.
          302: z.null().describe('На /auth (с одноразовым кодом или ошибкой) или на /profile'),
          400: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request, reply) => {
      await enforceLimit(rateLimiter, `yandex-callback:ip:${request.ip}`, LIMIT);
      reply.header('Cache-Control', 'no-store');
      const flow = flowOf(request, reply);
      const location = await yandex.callback(request.query, flow, clientOf(request), request.log);
      return reply.redirect(location, 302);
    },
  );

  app.post(
    '/authms/api/Auth/users/unlink-yandex',
    {
      onRequest: requireSession,
      preHandler: requireRecentProof,
      schema: {
        tags: ['yandex'],
        summary:
          'Отвязывает Яндекс ID (нужен свежий Auth/proof); 409, пока это единственный способ войти (нет пароля)',
        security: [{ bearer: [] }],
        response: {
          200: messageAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema.describe(`${PORTAL_ONLY}; ${PROOF_REQUIRED}`),
          409: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await unlinkYandex({ db, clock, securityLog }, sessionOf(request).userId, clientOf(request));
      return { message: YANDEX_MESSAGES.unlinked };
    },
  );

  app.post(
    '/auth/yandex/exchange',
    {
      schema: {
        tags: ['yandex'],
        summary:
          'Обмен одноразового кода входа через Яндекс ID на сессию (в том же браузере); со вторым фактором — requiresTwoFactor, как у входа по паролю',
        body: yandexExchangeRequestSchema,
        response: {
          200: yandexExchangeAnswerSchema,
          400: errorAnswerSchema,
          403: errorAnswerSchema.describe(ACCOUNT_BLOCKED),
          429: errorAnswerSchema,
        },
      },
    },
    async (request, reply) => {
      await enforceLimit(rateLimiter, `yandex-exchange:ip:${request.ip}`, LIMIT);
      reply.header('Cache-Control', 'no-store');
      return yandex.exchange(request.body, flowOf(request, reply), clientOf(request));
    },
  );
};

/** The flow id from the browser's cookie (parsed by @fastify/cookie, http/http-plugin.ts). */
function flowCookie(request: FastifyRequest): string | undefined {
  // An empty value, as a cleared cookie has, is no flow.
  return request.cookies[FLOW_COOKIE] || undefined;
}
