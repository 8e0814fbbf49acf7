import fp from 'fastify-plugin';
import type {} from '../../core-plugin.js';
import type {} from '../security/plugin.js';
import type {} from '../security-log/plugin.js';
import { createPortalBot } from './bot.js';
import { BotRunner } from './bot-runner.js';
import { telegramData } from './data-owner.js';
import { TelegramLinks } from './link-tokens.js';
import { telegramRoutes } from './routes.js';
import { SignInNotices } from './sign-in-notices.js';

/**
 * Linking Telegram, sign-in notices and the bot. With a bot token the bot starts receiving when
 * the app is ready; on close it stops receiving first, then the notices under way finish (none
 * start after), all before the database closes (server.ts closes it after the app).
 */
export const telegramPlugin = fp(
  async (app) => {
    app.deps.dataOwners.register(telegramData);
    const { config, db, clock, sessions, securityLog, notMeLinks } = app.deps;
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
    let runner: BotRunner | null = null;
    if (bot) {
      const notices = new SignInNotices({ db, api: bot.api, notMeLinks, log });
      sessions.onCreated(notices.onSessionCreated);
      const botRunner = new BotRunner({ bot, config, log });
      runner = botRunner;
      app.addHook('onReady', async () => botRunner.start());
      app.addHook('onClose', async () => {
        // A bot still receiving would handle updates against a closing database.
        await botRunner.stop();
        await notices.stop();
      });
    }
    await app.register(telegramRoutes, { links, runner });
  },
  { name: 'telegram', dependencies: ['core', 'security-log', 'security'] },
);
