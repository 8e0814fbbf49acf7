import {
  deletionCancelRequestSchema,
  deletionScheduledAnswerSchema,
  deletionStatusAnswerSchema,
} from '@portal/contracts/account-data';
import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUTH_PREFIX, requireRecentProof, requireSession, sessionOf } from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { ACCOUNT_DATA_MESSAGES } from './messages.js';

const PREFIX = `${AUTH_PREFIX}/account-data`;
const common = { tags: ['account-data'] };
const bearer = { security: [{ bearer: [] }] };
const proofAnswers = {
  401: errorAnswerSchema,
  403: errorAnswerSchema.describe('Нужно подтвердить, что это владелец (`reason: proof_required`)'),
};

/** «Скачать мои данные» and «Удалить аккаунт»; the rules are in the services beside. */
export const accountDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { accountDeletion, accountExport } = app.deps;

  app.get(
    `${PREFIX}/export`,
    {
      preHandler: [requireSession, requireRecentProof],
      schema: {
        ...common,
        ...bearer,
        summary: 'Файл JSON со всем, что портал хранит об аккаунте (после свежего подтверждения)',
        description:
          'Профиль, привязки, сеансы, журнал безопасности, платежи, записи кошелька, услуги; ' +
          'без паролей, секретов и кодов. Отдаётся потоком как вложение ' +
          '`moi-dannye-<username>-<дата>.json`; выгрузка записывается в журнал безопасности.',
        response: {
          200: z.unknown().describe('Файл с данными аккаунта'),
          ...proofAnswers,
          404: errorAnswerSchema,
        },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await accountExport.start(
        sessionOf(request).userId,
        clientOf(request),
      );
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );

  app.get(
    `${PREFIX}/deletion`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        ...bearer,
        summary: 'Запланировано ли удаление аккаунта, и не отменил ли его только что вход',
        response: { 200: deletionStatusAnswerSchema, 401: errorAnswerSchema },
      },
    },
    async (request) => {
      const status = await accountDeletion.status(sessionOf(request).userId);
      return {
        dueAt: status.dueAt?.toISOString() ?? null,
        isCancelledBySignIn: status.isCancelledBySignIn,
      };
    },
  );

  app.post(
    `${PREFIX}/deletion`,
    {
      // A deletion that would be refused anyway says why before a proof is asked for.
      preHandler: [
        requireSession,
        async (request) => accountDeletion.assertDeletable(sessionOf(request).userId),
        requireRecentProof,
      ],
      schema: {
        ...common,
        ...bearer,
        summary: 'Планирует удаление аккаунта через 7 дней и завершает все сеансы',
        description:
          'Отказ (409), пока на балансе есть рубли, работает оплаченная услуга или не завершено ' +
          'пополнение. Письмо со ссылкой отмены; любой вход до срока тоже отменяет удаление.',
        response: {
          200: deletionScheduledAnswerSchema,
          ...proofAnswers,
          404: errorAnswerSchema,
          409: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      const dueAt = await accountDeletion.schedule(sessionOf(request).userId, clientOf(request));
      return { message: ACCOUNT_DATA_MESSAGES.scheduled, dueAt: dueAt.toISOString() };
    },
  );

  app.post(
    `${PREFIX}/deletion/cancel`,
    {
      schema: {
        ...common,
        summary: 'Отменяет удаление по ссылке из письма (без входа; ссылка действует один раз)',
        body: deletionCancelRequestSchema,
        response: { 200: messageAnswerSchema, 400: errorAnswerSchema, 404: errorAnswerSchema },
      },
    },
    async (request) => {
      await accountDeletion.cancelByToken(request.body.token, clientOf(request));
      return { message: ACCOUNT_DATA_MESSAGES.cancelled };
    },
  );

  app.post(
    `${PREFIX}/deletion/notice-seen`,
    {
      preHandler: requireSession,
      schema: {
        ...common,
        ...bearer,
        summary: 'Владелец прочитал, что вход отменил удаление аккаунта',
        response: { 204: z.null().describe('Принято'), 401: errorAnswerSchema },
      },
    },
    async (request, reply) => {
      await accountDeletion.acknowledge(sessionOf(request).userId);
      return reply.code(204).send(null);
    },
  );
};
