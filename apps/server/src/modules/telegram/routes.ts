import { errorAnswerSchema, messageAnswerSchema } from '@portal/contracts/common';
import { telegramCheckAnswerSchema, telegramLinkAnswerSchema } from '@portal/contracts/telegram';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Update } from 'grammy/types';
import { notFound } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import {
  assertRecentlyProven,
  requireRecentProof,
  requireSession,
  sessionOf,
} from '../auth/index.js';
import { clientOf } from '../security-log/index.js';
import { type BotRunner, hasWebhookSecret, WEBHOOK_PATH, webhookSecret } from './bot-runner.js';
import type { TelegramLinks } from './link-tokens.js';
import { TELEGRAM_MESSAGES } from './messages.js';
import { unlinkTelegram } from './unlink.js';

const errors = {
  401: errorAnswerSchema,
  404: errorAnswerSchema,
  409: errorAnswerSchema,
  503: errorAnswerSchema,
};

export interface TelegramRoutesOptions {
  links: TelegramLinks;
  /** Null without a bot token; the webhook route exists only in webhook mode. */
  runner: BotRunner | null;
}

/** telegrambotms: the link call, the linked check, and the bot's webhook. */
export async function telegramRoutes(
  app: FastifyInstance,
  { links, runner }: TelegramRoutesOptions,
) {
  const { config, db, clock, securityLog } = app.deps;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  if (runner && config.TELEGRAM_MODE === 'webhook') {
    const expected = Buffer.from(webhookSecret(config));
    typed.post(WEBHOOK_PATH, { schema: { hide: true } }, async (request, reply) => {
      const header = request.headers['x-telegram-bot-api-secret-token'];
      if (!hasWebhookSecret(expected, header)) {
        return reply.status(401).send({ message: 'Неверный секретный токен' });
      }
      // Telegram gets its 200 whatever the bot's handlers make of the update.
      await runner.handleUpdate(request.body as Update);
      return reply.status(200).send({ ok: true });
    });
  }

  typed.get(
    '/telegrambotms/api/Bot/generate-telegram-link',
    {
      onRequest: requireSession,
      schema: {
        tags: ['telegram'],
        summary: 'Ссылка t.me на бота с одноразовым токеном (15 минут); нужен свежий Auth/proof',
        security: [{ bearer: [] }],
        response: { 200: telegramLinkAnswerSchema, 403: errorAnswerSchema, ...errors },
      },
    },
    async (request) => {
      // A linked Telegram is a way into the account (its sign-in notices end sessions): only a
      // session that has just proved its owner may add one.
      const session = sessionOf(request);
      return {
        link: await links.create(session.userId, () => assertRecentlyProven(request, session)),
      };
    },
  );

  typed.get(
    '/authms/api/Auth/users/check-telegram-user',
    {
      onRequest: requireSession,
      schema: {
        tags: ['telegram'],
        summary: 'Привязан ли Telegram к аккаунту',
        security: [{ bearer: [] }],
        response: { 200: telegramCheckAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const user = await findUserById(db, sessionOf(request).userId);
      if (!user) throw notFound(TELEGRAM_MESSAGES.userNotFound);
      return user.telegramId !== null;
    },
  );

  typed.post(
    '/authms/api/Auth/users/unlink-telegram',
    {
      onRequest: requireSession,
      preHandler: requireRecentProof,
      schema: {
        tags: ['telegram'],
        summary:
          'Отвязывает Telegram (нужен свежий Auth/proof): уведомления о входах больше не придут',
        security: [{ bearer: [] }],
        response: {
          200: messageAnswerSchema,
          401: errorAnswerSchema,
          403: errorAnswerSchema,
          409: errorAnswerSchema,
        },
      },
    },
    async (request) => {
      await unlinkTelegram(
        { db, clock, securityLog },
        sessionOf(request).userId,
        clientOf(request),
      );
      return { message: TELEGRAM_MESSAGES.unlinked };
    },
  );
}
