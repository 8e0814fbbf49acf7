import { errorAnswerSchema } from '@portal/contracts/common';
import {
  SECURITY_LOG_PAGE_SIZE,
  securityLogAnswerSchema,
  securityLogQuerySchema,
} from '@portal/contracts/security-log';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUTH_PREFIX, requireSession, sessionOf } from '../auth/index.js';

/** The account's security log, read by its owner from the portal. */
export const securityLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { securityLog } = app.deps;

  app.get(
    `${AUTH_PREFIX}/security-log`,
    {
      preHandler: requireSession,
      schema: {
        tags: ['security-log'],
        summary: 'Журнал безопасности аккаунта, новые сверху',
        description:
          'Входы, неудачные попытки входа (одна запись на день со счётчиком `count`), выходы, ' +
          'завершённые сеансы, смена и восстановление пароля, двухфакторная защита, резервные ' +
          'коды, смена почты, привязки, переходы на сайты-партнёры; хранится год. Страницы: ' +
          `\`limit\` (1–100, по умолчанию ${SECURITY_LOG_PAGE_SIZE}) и \`cursor\` = \`nextCursor\` ` +
          'прошлой страницы; `nextCursor: null` — страниц больше нет.',
        security: [{ bearer: [] }],
        querystring: securityLogQuerySchema,
        response: {
          200: securityLogAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const { cursor, limit } = request.query;
      return securityLog.page(sessionOf(request).userId, {
        cursor,
        limit: limit ?? SECURITY_LOG_PAGE_SIZE,
      });
    },
  );
};
