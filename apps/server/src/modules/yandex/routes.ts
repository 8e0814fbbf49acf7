import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import {
  ACCOUNT_BLOCKED,
  CODE_WRONG,
  PORTAL_ONLY,
  PROOF_REQUIRED,
  YANDEX_SIGN_IN_CODE_REFUSED,
} from '@portal/contracts/messages';
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
import { AppError, invalidInput } from '../../http/app-error.js';
import {
  assertRecentlyProven,
  bearerToken,
  LoginRefused,
  requireRecentProof,
  requireSession,
  sessionOf,
} from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { YANDEX_MESSAGES } from './messages.js';
import { createState, readState, STATE_TTL_MS } from './oauth-state.js';
import {
  flowHashOf,
  issueSignInCode,
  newFlow,
  SECOND_FACTOR_SIGN_IN_CODE_TTL_MS,
  SIGN_IN_CODE_TTL_MS,
  signInCodeOwner,
  spendSignInCode,
  spendState,
} from './sign-in-flows.js';
import { resolveYandexAccount, unlinkYandex } from './yandex-accounts.js';
import { fetchYandexProfile, YandexUnavailable } from './yandex-profile.js';

export const FLOW_COOKIE = 'portal_yandex_flow';
const COOKIE_PATH = '/auth/yandex';
/** Per client address, for each of the two steps that check something secret. */
const LIMIT = { limit: 30, windowMs: 10 * 60_000 };

/**
 * Yandex ID, implicit flow (module README): `getUrl` starts a flow (its id in an HttpOnly cookie,
 * its hash in the signed state); Yandex returns the browser to the portal's /oauth, which forwards
 * the fragment here; the callback spends the state, reads the profile and redirects to /auth with
 * a one-time code, never a session token; `exchange` turns the code into a session, only in the
 * browser holding the flow cookie.
 */
export const yandexRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, clock, sessions, rateLimiter, signInPolicy, securityLog } = app.deps;
  const isHttps = config.PUBLIC_URL.startsWith('https://');
  const portal = (path: string, params: Record<string, string>) => {
    const url = new URL(path, config.PUBLIC_URL);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  };
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
      const token = bearerToken(request);
      const session = token ? await sessions.authenticate(token) : null;
      // Linking is portal-only: a sibling site's session may not link an account to the user.
      if (session?.siblingOrigin) throw new AppError('forbidden', PORTAL_ONLY);
      if (!config.YANDEX_CLIENT_ID)
        throw new AppError('unavailable', YANDEX_MESSAGES.notConfigured);
      // Linking adds a way into the account: only a session that has just proved its owner.
      if (session) await assertRecentlyProven(request, session);
      const { flowId, flowHash } = newFlow();
      const state = createState(config.SECRET_KEY, clock.now(), flowHash, session?.userId);

      const url = new URL(config.YANDEX_AUTHORIZE_URL);
      url.searchParams.set('response_type', 'token');
      url.searchParams.set('client_id', config.YANDEX_CLIENT_ID);
      url.searchParams.set('redirect_uri', new URL('/oauth', config.PUBLIC_URL).toString());
      url.searchParams.set('state', state);
      setFlowCookie(reply, flowId, STATE_TTL_MS / 1000);
      reply.header('Cache-Control', 'no-store');
      return { status: 'ok' as const, data: { url: url.toString() } };
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
      const query = request.query;
      const now = clock.now();
      const state = query.state ? readState(config.SECRET_KEY, query.state, now) : null;
      const back = state?.userId ? '/profile' : '/auth';
      const fail = (message: string) => {
        setFlowCookie(reply, '', 0);
        return reply.redirect(portal(back, { yandexError: message }), 302);
      };

      const flowId = flowCookie(request);
      if (!state || !flowId || flowHashOf(flowId) !== state.flowHash) {
        return fail(YANDEX_MESSAGES.stale);
      }
      // From here on this state is used up, whatever the outcome.
      if (!(await spendState(db, state.flowHash, new Date(state.expiresAt), now))) {
        return fail(YANDEX_MESSAGES.stale);
      }
      if (query.error || !query.access_token) return fail(YANDEX_MESSAGES.cancelled);
      if (!config.YANDEX_CLIENT_ID) return fail(YANDEX_MESSAGES.notConfigured);

      let profile: Awaited<ReturnType<typeof fetchYandexProfile>>;
      try {
        profile = await fetchYandexProfile(config.YANDEX_USERINFO_URL, query.access_token);
      } catch (error) {
        if (!(error instanceof YandexUnavailable)) throw error;
        request.log.warn({ err: error }, 'yandex user-info failed');
        return fail(YANDEX_MESSAGES.providerFailed);
      }
      // A token issued to another application must not sign anyone in here.
      if (profile.client_id !== config.YANDEX_CLIENT_ID)
        return fail(YANDEX_MESSAGES.providerFailed);

      const outcome = await resolveYandexAccount(
        { db, clock, securityLog },
        profile,
        state.userId,
        clientOf(request),
      );
      if (outcome.kind === 'refused') return fail(outcome.message);
      if (outcome.kind === 'linked') {
        setFlowCookie(reply, '', 0);
        return reply.redirect(portal('/profile', { yandexLinked: '1' }), 302);
      }
      // Not a session token: a code that only this browser (its flow cookie) can exchange, once.
      // When the sign-in policy will ask a second step, the code waits for it, so it lives longer.
      const ttlMs =
        (await signInPolicy.secondStepOf(outcome.user.id, 'yandex')) === 'none'
          ? SIGN_IN_CODE_TTL_MS
          : SECOND_FACTOR_SIGN_IN_CODE_TTL_MS;
      const code = await issueSignInCode(db, state.flowHash, outcome.user.id, now, ttlMs);
      setFlowCookie(reply, flowId, ttlMs / 1000);
      return reply.redirect(portal('/auth', { yandexCode: code }), 302);
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
      const refused = () => {
        setFlowCookie(reply, '', 0);
        return invalidInput(YANDEX_SIGN_IN_CODE_REFUSED, { code: [YANDEX_SIGN_IN_CODE_REFUSED] });
      };
      const flowId = flowCookie(request);
      const { code, twoFactorCode, passkey } = request.body;
      const userId = flowId ? await signInCodeOwner(db, { code, flowId }, clock.now()) : null;
      if (!flowId || !userId) throw refused();

      // Yandex stands in for the password: the sign-in policy asks what the password sign-in
      // asks (the authenticator's code, or a passkey), counted in the account's lock, and the
      // flow (code and cookie) waits meanwhile. The flow ends in the session's transaction.
      let result: Awaited<ReturnType<typeof signInPolicy.signIn>>;
      try {
        result = await signInPolicy.signIn({
          userId,
          way: 'yandex',
          client: clientOf(request),
          secondStep: { twoFactorCode, passkey },
          inTransaction: async (tx) => {
            if ((await spendSignInCode(tx, { code, flowId }, clock.now())) !== userId) {
              throw refused();
            }
          },
        });
      } catch (error) {
        // A wrong second factor is a field of this form, as it always was.
        if (error instanceof LoginRefused && error.outcome === 'wrong_second_factor') {
          const field = error.message === CODE_WRONG ? 'twoFactorCode' : 'passkey';
          throw invalidInput(error.message, { [field]: [error.message] });
        }
        throw error;
      }
      if (result.status === 'second_step') return result.answer;
      setFlowCookie(reply, '', 0);
      return { token: result.token, userId };
    },
  );
};

/** The flow id from the browser's cookie (parsed by @fastify/cookie, http/http-plugin.ts). */
function flowCookie(request: FastifyRequest): string | undefined {
  // An empty value, as a cleared cookie has, is no flow.
  return request.cookies[FLOW_COOKIE] || undefined;
}
