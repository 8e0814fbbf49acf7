import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Bot } from 'grammy';
import type { Update } from 'grammy/types';
import type { Config } from '../../config.js';

export const WEBHOOK_PATH = '/telegrambotms/api/Bot/webhook';

/** The X-Telegram-Bot-Api-Secret-Token value: configured, or derived from SECRET_KEY. */
export function webhookSecret(config: Pick<Config, 'TELEGRAM_WEBHOOK_SECRET' | 'SECRET_KEY'>) {
  return (
    config.TELEGRAM_WEBHOOK_SECRET ||
    createHmac('sha256', config.SECRET_KEY).update('telegram-webhook').digest('base64url')
  );
}

/** Whether a webhook call's X-Telegram-Bot-Api-Secret-Token is `expected`, in constant time. */
export function hasWebhookSecret(expected: Buffer, header: unknown): boolean {
  const given = Buffer.from(typeof header === 'string' ? header : '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface RunnerLog {
  info(obj: object, message: string): void;
  warn(obj: object, message: string): void;
}

export interface BotRunnerDeps {
  bot: Bot;
  config: Pick<Config, 'TELEGRAM_MODE' | 'PUBLIC_URL' | 'TELEGRAM_WEBHOOK_SECRET' | 'SECRET_KEY'>;
  log: RunnerLog;
}

/**
 * Receives the bot's updates by the configured mode. Polling runs in the background and comes
 * back after failures (Telegram unreachable, another process polling) with a growing pause;
 * webhook mode registers PUBLIC_URL + WEBHOOK_PATH with Telegram at start. Only one process may
 * poll a bot: with several processes, use the webhook.
 */
export class BotRunner {
  private stopped = false;
  private polling: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly deps: BotRunnerDeps) {}

  /** One update the webhook received; failures inside handlers are caught and logged by bot.catch. */
  async handleUpdate(update: Update): Promise<void> {
    if (!this.deps.bot.isInited()) await this.deps.bot.init();
    await this.deps.bot.handleUpdate(update);
  }

  start(): void {
    if (this.deps.config.TELEGRAM_MODE === 'webhook') {
      const url = new URL(WEBHOOK_PATH, this.deps.config.PUBLIC_URL).toString();
      this.deps.bot.api
        .setWebhook(url, {
          secret_token: webhookSecret(this.deps.config),
          allowed_updates: ['message', 'callback_query'],
        })
        .then(() => this.deps.log.info({ url }, 'telegram webhook set'))
        .catch((error) => this.deps.log.warn({ err: error }, 'telegram setWebhook failed'));
      return;
    }
    this.polling = this.poll();
  }

  private async poll() {
    let pauseMs = 1_000;
    while (!this.stopped) {
      try {
        await this.deps.bot.start({ allowed_updates: ['message', 'callback_query'] });
        pauseMs = 1_000;
      } catch (error) {
        if (this.stopped) return;
        this.deps.log.warn(
          { err: error, retryInMs: pauseMs },
          'telegram polling stopped; restarting',
        );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pauseMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        pauseMs = Math.min(pauseMs * 2, 60_000);
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (this.deps.bot.isRunning()) await this.deps.bot.stop().catch(() => {});
    await this.polling;
  }
}
