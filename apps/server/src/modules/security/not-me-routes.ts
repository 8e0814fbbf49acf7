import { errorAnswerSchema } from '@portal/contracts/common';
import {
  notMeAnswerSchema,
  notMeRequestSchema,
  signInAlertsAnswerSchema,
  signInAlertsRequestSchema,
} from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { enforceLimit } from '../../adapters/rate-limit.js';
import { requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { SECURITY_MESSAGES } from './messages.js';
import { type NotMeService, setSignInAlertsByEmail } from './not-me-service.js';

const PREFIX = '/authms/api/Auth';
const MINUTE = 60_000;
/** Uses of «Это был не я» links from one address: a household's worth, no guessing. */
const NOT_ME_PER_ADDRESS = { limit: 20, windowMs: 15 * MINUTE };

/** «Это был не я» (no session: the link is the proof) and the alert letter's switch. */
export const notMeRoutes: FastifyPluginAsyncZod<{ notMe: NotMeService }> = async (
  app,
  { notMe },
) => {
  const { rateLimiter, db, clock } = app.deps;

  app.post(
    `${PREFIX}/not-me`,
    {
      schema: {
        tags: ['sessions'],
        summary:
          '«Это был не я» по ссылке из оповещения о входе: завершает все сеансы аккаунта и ' +
          'отправляет код для смены пароля. Ссылка действует 7 дней и срабатывает один раз',
        body: notMeRequestSchema,
        response: { 200: notMeAnswerSchema, 400: errorAnswerSchema, 429: errorAnswerSchema },
      },
    },
    async (request) => {
      await enforceLimit(rateLimiter, `not-me:ip:${request.ip}`, NOT_ME_PER_ADDRESS);
      return notMe.confirm(request.body.token, clientOf(request));
    },
  );

  app.put(
    `${PREFIX}/sign-in-alerts`,
    {
      onRequest: requireSession,
      schema: {
        tags: ['profile'],
        summary: 'Оповещения о входе с нового устройства на почту: включить или выключить',
        security: [{ bearer: [] }],
        body: signInAlertsRequestSchema,
        response: { 200: signInAlertsAnswerSchema, 400: errorAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const { byEmail } = request.body;
      await setSignInAlertsByEmail({ db, clock }, sessionOf(request).userId, byEmail);
      return {
        message: byEmail ? SECURITY_MESSAGES.signInAlertsOn : SECURITY_MESSAGES.signInAlertsOff,
        byEmail,
      };
    },
  );
};
