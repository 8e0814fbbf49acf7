import { errorAnswerSchema } from '@portal/contracts/common';
import { PORTAL_ONLY } from '@portal/contracts/messages';
import { logoutAllAnswerSchema, logoutAllRequestSchema } from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import { emailKey, findUserByEmailKey } from '../accounts/index.js';
import { codeRefusal, requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { ResetLogoutGrants } from './reset-logout-grants.js';

const PREFIX = '/authms/api/Auth';
const MINUTE = 60_000;
/** Grant checks from one address: enough for a household, useless for guessing codes. */
const GRANT_CHECKS_PER_ADDRESS = { limit: 20, windowMs: 15 * MINUTE };

/** Signing out of many sessions at once (`logout-all`, `logout-all-except-current`). */
export const logoutRoutes: FastifyPluginAsyncZod<{ grants: ResetLogoutGrants }> = async (
  app,
  { grants },
) => {
  const { sessions, db, rateLimiter, securityLog } = app.deps;

  app.post(
    `${PREFIX}/logout-all`,
    {
      schema: {
        tags: ['sessions'],
        summary:
          'Завершает все сеансы: вызывающего (по токену) или, сразу после сброса пароля, ' +
          'аккаунта по { email, code } (один раз, в течение 10 минут)',
        security: [{ bearer: [] }, {}],
        body: logoutAllRequestSchema.nullish(),
        response: {
          200: logoutAllAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema.describe(PORTAL_ONLY),
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const body = request.body;
      if (!body) {
        await requireSession(request);
        const { userId } = sessionOf(request);
        await sessions.revokeAll(userId);
        await securityLog.record(db, userId, 'sessions_ended', clientOf(request), {
          isCurrentKept: false,
        });
        return { message: SECURITY_MESSAGES.signedOutEverywhere };
      }
      await enforceLimit(rateLimiter, `reset-logout:ip:${request.ip}`, GRANT_CHECKS_PER_ADDRESS);
      const user = await findUserByEmailKey(db, emailKey(body.email));
      // An unknown address is refused exactly like a wrong code.
      const accepted =
        user !== undefined &&
        (await grants.redeem(user.id, body.code, async (tx) => {
          await sessions.revokeAll(user.id, {}, tx);
          await securityLog.record(tx, user.id, 'sessions_ended', clientOf(request), {
            isCurrentKept: false,
          });
        }));
      if (!accepted) throw codeRefusal('wrong');
      return { message: SECURITY_MESSAGES.signedOutEverywhere };
    },
  );

  app.post(
    `${PREFIX}/logout-all-except-current`,
    {
      preHandler: requireSession,
      schema: {
        tags: ['sessions'],
        summary: 'Завершает все сеансы вызывающего, кроме текущего',
        security: [{ bearer: [] }],
        response: { 200: logoutAllAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      await sessions.revokeAll(session.userId, { exceptSessionId: session.id });
      await securityLog.record(db, session.userId, 'sessions_ended', clientOf(request), {
        isCurrentKept: true,
      });
      return { message: SECURITY_MESSAGES.signedOutOthers };
    },
  );
};
