import { errorAnswerSchema } from '@portal/contracts/common';
import {
  PASSWORD_CHANGE_PRODUCT,
  passwordChangeAnswerSchema,
  passwordChangeCodeAnswerSchema,
  passwordChangeCodeCheckAnswerSchema,
  passwordChangeCodeCheckRequestSchema,
  passwordChangeRequestSchema,
} from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { PasswordChangeService } from './password-change-service.js';

const PREFIX = `/${PASSWORD_CHANGE_PRODUCT}/auth/password`;
const common = { tags: ['password'], security: [{ bearer: [] }] };

/** Password change from the profile; the rules are in password-change-service.ts. */
export const passwordChangeRoutes: FastifyPluginAsyncZod<{
  passwords: PasswordChangeService;
}> = async (app, { passwords }) => {
  app.post(
    `${PREFIX}/change-code`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Отправляет на почту код для смены пароля (не нужен, если включён аутентификатор)',
        response: {
          200: passwordChangeCodeAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          409: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await passwords.sendChangeCode(sessionOf(request).userId);
      return { status: 'ok' as const, message: SECURITY_MESSAGES.changeCodeSent };
    },
  );

  app.post(
    `${PREFIX}/change-code/check`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary:
          'Проверяет код из письма, не расходуя его: неверный код отнимает одну из его 5 попыток ' +
          '(ответ называет, сколько осталось); верный остаётся для смены пароля',
        body: passwordChangeCodeCheckRequestSchema,
        response: {
          200: passwordChangeCodeCheckAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          409: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await passwords.checkChangeCode(sessionOf(request).userId, request.body.code);
      return { status: 'ok' as const, message: SECURITY_MESSAGES.changeCodeRight };
    },
  );

  app.post(
    `${PREFIX}/change`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary:
          'Меняет пароль: текущий пароль, новый и код (из письма или из аутентификатора); ' +
          'по желанию завершает остальные сеансы',
        body: passwordChangeRequestSchema,
        response: {
          200: passwordChangeAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          404: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await passwords.changePassword(sessionOf(request), request.body, clientOf(request));
      return { status: 'ok' as const, message: SECURITY_MESSAGES.passwordChanged };
    },
  );
};
