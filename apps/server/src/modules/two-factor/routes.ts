import { errorAnswerSchema } from '@portal/contracts/common';
import { USER_NOT_FOUND } from '@portal/contracts/messages';
import {
  recoveryCodesAnswerSchema,
  twoFactorCodeAnswerSchema,
  twoFactorCodeRequestSchema,
  twoFactorConfirmRequestSchema,
  twoFactorEnableAnswerSchema,
  twoFactorStatusAnswerSchema,
} from '@portal/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../http/app-error.js';
import { errorAnswers } from '../../http/openapi.js';
import { findUserById } from '../accounts/index.js';
import { requireRecentProof, requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { TWO_FACTOR_MESSAGES } from './messages.js';

const PREFIX = '/authms/api/Auth/2fa';
const errors = errorAnswers(400, 401, 403, 409, 429);
const common = { tags: ['two-factor'], security: [{ bearer: [] }] };

/** The authenticator app (`2fa/*`) and its recovery codes. */
export const twoFactorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { twoFactor, loginThrottle } = app.deps;
  // Switching the authenticator on needs a fresh proof of the owner (auth/recent-proof.ts).
  // Switching it off and renewing recovery codes need none: the code they take from the app (or
  // a recovery code) is that proof, checked under the account's sign-in lock
  // (loginThrottle.guard), where a wrong code counts like a failed login.

  app.post(
    `${PREFIX}/enable`,
    {
      preHandler: [requireSession, requireRecentProof],
      schema: {
        ...common,
        summary: 'Новый секрет аутентификатора (ждёт подтверждения кодом); нужен свежий Auth/proof',
        response: { 200: twoFactorEnableAnswerSchema, 404: errorAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const user = await findUserById(app.deps.db, userId);
      if (!user) throw notFound(USER_NOT_FOUND);
      return twoFactor.beginEnrollment({ id: userId, account: user.email || user.userName });
    },
  );

  app.post(
    `${PREFIX}/verify`,
    {
      preHandler: [requireSession, requireRecentProof],
      schema: {
        ...common,
        summary:
          'Включает аутентификатор по коду; отвечает резервными кодами (один раз); ' +
          'нужен свежий Auth/proof',
        body: twoFactorCodeRequestSchema,
        response: { 200: recoveryCodesAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const recoveryCodes = await twoFactor.confirmEnrollment(
        userId,
        request.body.code,
        clientOf(request),
      );
      return { message: TWO_FACTOR_MESSAGES.enabled, recoveryCodes };
    },
  );

  app.post(
    `${PREFIX}/disable`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Отключает аутентификатор по коду из приложения или резервному коду',
        body: twoFactorConfirmRequestSchema,
        response: { 200: twoFactorCodeAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      await loginThrottle.guard(userId, () =>
        twoFactor.disable(userId, request.body.code, clientOf(request)),
      );
      return { message: TWO_FACTOR_MESSAGES.disabled };
    },
  );

  app.post(
    `${PREFIX}/recovery-codes`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Новые резервные коды по коду; прежние перестают действовать',
        body: twoFactorConfirmRequestSchema,
        response: { 200: recoveryCodesAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const recoveryCodes = await loginThrottle.guard(userId, () =>
        twoFactor.regenerateRecoveryCodes(userId, request.body.code, clientOf(request)),
      );
      return { message: TWO_FACTOR_MESSAGES.recoveryCodesRenewed, recoveryCodes };
    },
  );

  app.get(
    `${PREFIX}/status`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        summary: 'Включён ли аутентификатор и сколько резервных кодов осталось',
        response: { 200: twoFactorStatusAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const [isEnabled, recoveryCodesLeft] = await Promise.all([
        twoFactor.isEnabled(userId),
        twoFactor.recoveryCodesLeft(userId),
      ]);
      return { isEnabled, recoveryCodesLeft };
    },
  );
};
