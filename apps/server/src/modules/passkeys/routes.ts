import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import { ACCOUNT_BLOCKED } from '@portal/contracts/messages';
import {
  PASSKEY_MESSAGES,
  passkeyCreationOptionsAnswerSchema,
  passkeyListAnswerSchema,
  passkeyParamsSchema,
  passkeyRegisterAnswerSchema,
  passkeyRegisterRequestSchema,
  passkeyRenameRequestSchema,
  passkeyRequestOptionsAnswerSchema,
  passkeySchema,
  passkeySignInAnswerSchema,
  passkeySignInRequestSchema,
} from '@portal/contracts/passkeys';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../http/app-error.js';
import { requireRecentProof, requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';

export const PASSKEYS_PREFIX = '/authms/api/Auth/passkeys';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const tags = ['passkeys'];
const security = [{ bearer: [] }];

/** The owner's passkeys (portal sessions only) and the sign-in by a passkey (anyone). */
export const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { passkeys } = app.deps;
  // An unknown or malformed id answers like another user's passkey: 404.
  const passkeyId = (id: string) => {
    if (!UUID.test(id)) throw notFound(PASSKEY_MESSAGES.notFound);
    return id;
  };

  app.get(
    PASSKEYS_PREFIX,
    {
      preHandler: requireSession,
      schema: {
        tags,
        security,
        summary: 'Ключи доступа аккаунта: название, когда добавлен и когда использован',
        response: { 200: passkeyListAnswerSchema, 401: errorAnswerSchema, 403: errorAnswerSchema },
      },
    },
    async (request) => ({ data: await passkeys.list(sessionOf(request).userId) }),
  );

  app.post(
    `${PASSKEYS_PREFIX}/registration/options`,
    {
      preHandler: [requireSession, requireRecentProof],
      schema: {
        tags,
        security,
        summary: 'Параметры для создания ключа доступа в браузере; нужен свежий Auth/proof',
        response: {
          200: passkeyCreationOptionsAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema,
          404: errorAnswerSchema,
        },
      },
    },
    async (request) => ({
      options: await passkeys.registrationOptions(sessionOf(request).userId),
    }),
  );

  app.post(
    `${PASSKEYS_PREFIX}/registration`,
    {
      preHandler: [requireSession, requireRecentProof],
      schema: {
        tags,
        security,
        summary: 'Сохраняет ключ доступа, созданный браузером; нужен свежий Auth/proof',
        body: passkeyRegisterRequestSchema,
        response: {
          200: passkeyRegisterAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema,
          409: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      const passkey = await passkeys.register(userId, request.body, clientOf(request));
      return { message: PASSKEY_MESSAGES.added, passkey };
    },
  );

  app.patch(
    `${PASSKEYS_PREFIX}/:id`,
    {
      preHandler: requireSession,
      schema: {
        tags,
        security,
        summary: 'Переименовывает ключ доступа; чужой или неизвестный — 404',
        params: passkeyParamsSchema,
        body: passkeyRenameRequestSchema,
        response: {
          200: passkeySchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema,
          404: errorAnswerSchema,
        },
      },
    },
    async (request) =>
      passkeys.rename(sessionOf(request).userId, passkeyId(request.params.id), request.body.name),
  );

  app.delete(
    `${PASSKEYS_PREFIX}/:id`,
    {
      preHandler: [requireSession, requireRecentProof],
      schema: {
        tags,
        security,
        summary: 'Удаляет ключ доступа; нужен свежий Auth/proof; чужой или неизвестный — 404',
        params: passkeyParamsSchema,
        response: {
          200: messageAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema,
          404: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const { userId } = sessionOf(request);
      await passkeys.remove(userId, passkeyId(request.params.id), clientOf(request));
      return { message: PASSKEY_MESSAGES.removed };
    },
  );

  app.post(
    `${PASSKEYS_PREFIX}/sign-in/options`,
    {
      schema: {
        tags,
        summary: 'Параметры входа с ключом доступа (без логина: ключ сам называет аккаунт)',
        response: { 200: passkeyRequestOptionsAnswerSchema, 429: errorAnswerSchema },
      },
    },
    async (request) => ({ options: await passkeys.signInOptions(clientOf(request)) }),
  );

  app.post(
    `${PASSKEYS_PREFIX}/sign-in`,
    {
      config: { answersToken: true },
      schema: {
        tags,
        summary: 'Вход с ключом доступа: подписанный браузером вызов → сеанс',
        body: passkeySignInRequestSchema,
        response: {
          200: passkeySignInAnswerSchema,
          400: errorAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema.describe(ACCOUNT_BLOCKED),
        },
      },
    },
    async (request) => passkeys.signIn(request.body, clientOf(request)),
  );
};
