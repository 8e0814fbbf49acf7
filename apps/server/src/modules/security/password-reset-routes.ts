import { errorAnswerSchema } from '@portal/contracts/common';
import {
  forgotPasswordAnswerSchema,
  forgotPasswordEmail,
  forgotPasswordRequestSchema,
  resetPasswordAnswerSchema,
  resetPasswordRequestSchema,
} from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientOf } from '../security-log/index.js';
import { SECURITY_MESSAGES } from './messages.js';
import type { PasswordResetService } from './password-reset-service.js';

const PREFIX = '/authms/api/Auth';

/** Password recovery by an e-mail code; the rules are in password-reset-service.ts. */
export const passwordResetRoutes: FastifyPluginAsyncZod<{
  passwords: PasswordResetService;
}> = async (app, { passwords }) => {
  app.post(
    `${PREFIX}/forgot-password`,
    {
      schema: {
        tags: ['password'],
        summary:
          'Просит код сброса пароля. Тело — сама почта строкой JSON или { email }. Ответ всегда один и тот же; ' +
          'код уходит только на известную подтверждённую почту',
        body: forgotPasswordRequestSchema,
        response: {
          200: forgotPasswordAnswerSchema,
          400: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await passwords.sendResetCode(forgotPasswordEmail(request.body), request.ip);
      return { message: SECURITY_MESSAGES.resetCodeSent };
    },
  );

  app.post(
    `${PREFIX}/reset-password-with-code`,
    {
      schema: {
        tags: ['password'],
        summary:
          'Новый пароль по коду из письма (10 минут, один раз, 5 попыток). Аутентификатор не ' +
          'трогает; с logoutEverywhere: true в том же действии завершает все сеансы аккаунта, ' +
          'без него сеансы остаются (выход отовсюду — вызов logout-all с { email, code })',
        body: resetPasswordRequestSchema,
        response: {
          200: resetPasswordAnswerSchema,
          400: errorAnswerSchema,
          429: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await passwords.resetPassword(request.body, clientOf(request));
      return { message: SECURITY_MESSAGES.passwordReset };
    },
  );
};
