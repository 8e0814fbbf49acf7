import { errorAnswerSchema } from '@portal/contracts/common';
import { yandexCallbackQuerySchema, yandexUrlAnswerSchema } from '@portal/contracts/yandex';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import { AppError } from '../../http/app-error.js';
import { clientOf } from '../auth/routes.js';
import { bearerToken } from '../auth/sessions.js';
import { YANDEX_MESSAGES } from './messages.js';
import { createState, readState, STATE_TTL_MS } from './oauth-state.js';
import { resolveYandexAccount } from './yandex-accounts.js';
import { fetchYandexProfile, YandexUnavailable } from './yandex-profile.js';

export const STATE_COOKIE = 'portal_yandex_state';
const COOKIE_PATH = '/auth/yandex';

/**
 * Yandex ID, implicit flow (DESIGN §3): `getUrl` answers the authorize URL with a signed state
 * and leaves its nonce in a cookie; Yandex returns the browser to the portal's /oauth, which
 * forwards the fragment here; the callback checks both, reads the profile and redirects.
 */
export const yandexRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, db, clock, sessions, rateLimiter } = app.deps;
  const isHttps = config.PUBLIC_URL.startsWith('https://');
  const portal = (path: string, params: Record<string, string>) => {
    const url = new URL(path, config.PUBLIC_URL);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  };
  const cookie = (value: string, maxAgeSeconds: number) =>
    [
      `${STATE_COOKIE}=${value}`,
      `Path=${COOKIE_PATH}`,
      `Max-Age=${maxAgeSeconds}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(isHttps ? ['Secure'] : []),
    ].join('; ');

  app.get(
    '/auth/yandex/getUrl',
    {
      schema: {
        tags: ['yandex'],
        summary: 'Адрес входа через Яндекс ID (с токеном: привязка к аккаунту)',
        response: { 200: yandexUrlAnswerSchema, 503: errorAnswerSchema },
      },
    },
    async (request, reply) => {
      if (!config.YANDEX_CLIENT_ID)
        throw new AppError('unavailable', YANDEX_MESSAGES.notConfigured);
      // Signed in: the answer will link Yandex ID to this user instead of signing in.
      const token = bearerToken(request);
      const session = token ? await sessions.authenticate(token) : null;
      const { state, value } = createState(config.SECRET_KEY, clock.now(), session?.userId);

      const url = new URL(config.YANDEX_AUTHORIZE_URL);
      url.searchParams.set('response_type', 'token');
      url.searchParams.set('client_id', config.YANDEX_CLIENT_ID);
      url.searchParams.set('redirect_uri', new URL('/oauth', config.PUBLIC_URL).toString());
      url.searchParams.set('state', value);
      reply.header('Set-Cookie', cookie(state.nonce, STATE_TTL_MS / 1000));
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
      },
    },
    async (request, reply) => {
      await enforceLimit(rateLimiter, `yandex-callback:ip:${request.ip}`, {
        limit: 30,
        windowMs: 10 * 60_000,
      });
      reply.header('Set-Cookie', cookie('', 0));
      reply.header('Cache-Control', 'no-store');
      const query = request.query;
      const state = query.state ? readState(config.SECRET_KEY, query.state, clock.now()) : null;
      const back = state?.userId ? '/profile' : '/auth';
      const fail = (message: string) => reply.redirect(portal(back, { yandexError: message }), 302);

      if (!state || state.nonce !== stateCookie(request)) return fail(YANDEX_MESSAGES.stale);
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

      const outcome = await resolveYandexAccount({ db, clock }, profile, state.userId);
      if (outcome.kind === 'refused') return fail(outcome.message);
      if (outcome.kind === 'linked') {
        return reply.redirect(portal('/profile', { yandexLinked: '1' }), 302);
      }
      // Yandex stands in for the password, not for the authenticator code.
      if (await app.deps.secondFactor.isEnabled(outcome.user.id)) {
        return fail(YANDEX_MESSAGES.twoFactorRequired);
      }
      const { token } = await sessions.create({ userId: outcome.user.id, ...clientOf(request) });
      return reply.redirect(portal('/auth', { token }), 302);
    },
  );
};

function stateCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === STATE_COOKIE) return value.join('=');
  }
  return undefined;
}
