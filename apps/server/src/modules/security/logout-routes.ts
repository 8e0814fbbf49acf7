import { errorAnswerSchema } from '@portal/contracts/common';
import { PORTAL_ONLY } from '@portal/contracts/messages';
import { logoutAllAnswerSchema, logoutAllRequestSchema } from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import type { DevicesService } from './devices-service.js';
import { SECURITY_MESSAGES } from './messages.js';

const PREFIX = '/authms/api/Auth';

/** Signing out of many sessions at once (`logout-all`, `logout-all-except-current`). */
export const logoutRoutes: FastifyPluginAsyncZod<{ devices: DevicesService }> = async (
  app,
  { devices },
) => {
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
      if (body) {
        await devices.endAllByGrant(body, request.ip, clientOf(request));
      } else {
        await requireSession(request);
        await devices.endAll(sessionOf(request).userId, clientOf(request));
      }
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
      await devices.endOthers(sessionOf(request), clientOf(request));
      return { message: SECURITY_MESSAGES.signedOutOthers };
    },
  );
};
