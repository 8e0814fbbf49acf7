import { checkupAnswerSchema } from '@portal/contracts/checkup';
import { errorAnswerSchema } from '@portal/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession, sessionOf } from '../auth/index.js';
import type { CheckupService } from './checkup-service.js';

/** The security checkup of the profile and the home page. */
export const checkupRoutes: FastifyPluginAsyncZod<{ checkup: CheckupService }> = async (
  app,
  { checkup },
) => {
  app.get(
    '/authms/api/Auth/checkup',
    {
      onRequest: requireSession,
      schema: {
        tags: ['profile'],
        summary:
          'Проверка безопасности: почта, второй фактор, резервные коды, оповещения о входе, забытые сеансы, распространённый пароль',
        security: [{ bearer: [] }],
        response: { 200: checkupAnswerSchema, 401: errorAnswerSchema, 404: errorAnswerSchema },
      },
    },
    async (request) => checkup.checkup(sessionOf(request).userId),
  );
};
