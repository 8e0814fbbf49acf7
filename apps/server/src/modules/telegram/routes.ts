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
import { createPortalBot } from './bot.js';
import { BotRunner, hasWebhookSecret, WEBHOOK_PATH, webhookSecret } from './bot-runner.js';
import { TelegramLinks } from './link-tokens.js';
import { TELEGRAM_MESSAGES } from './messages.js';
import { SignInNotices } from './sign-in-notices.js';
import { unlinkTelegram } from './unlink.js';

const errors = {
  401: errorAnswerSchema,
  404: errorAnswerSchema,
  409: errorAnswerSchema,
  503: errorAnswerSchema,
};

/** telegrambotms: the link call, the linked check, the bot and its sign-in notices. */
export async function telegramRoutes(app: FastifyInstance) {
  const { config, db, clock, sessions, securityLog } = app.deps;
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const log = app.log.child({ module: 'telegram' });

  const links = new TelegramLinks({
    config,
    db,
    clock,
    isBotOn: Boolean(config.TELEGRAM_BOT_TOKEN),
  });
  const bot = config.TELEGRAM_BOT_TOKEN
    ? await createPortalBot(
        config.TELEGRAM_BOT_TOKEN,
        { apiRoot: config.TELEGRAM_API_ROOT },
        { db, clock, sessions, securityLog, log },
      )
    : null;

  if (bot) {
    const notices = new SignInNotices(db, bot.api, app.deps.notMeLinks, log);
    sessions.onCreated(notices.onSessionCreated);
    const runner = new BotRunner(bot, config, log);
    app.addHook('onReady', async () => runner.start());
    app.addHook('onClose', async () => {
      await runner.stop();
      await notices.stop();
    });

    if (config.TELEGRAM_MODE === 'webhook') {
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
