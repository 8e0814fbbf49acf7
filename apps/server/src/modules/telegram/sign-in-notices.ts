import { eq } from 'drizzle-orm';
import type { Api } from 'grammy';
import { UAParser } from 'ua-parser-js';
import type { Db } from '../../db/database.js';
import { findUserById } from '../accounts/index.js';
import { type SessionRow, sessions } from '../auth/schema.js';
import { endSessionData } from './bot.js';
import { BOT_TEXT } from './messages.js';

const moscowTime = new Intl.DateTimeFormat('ru-RU', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Moscow',
});

/** 'Chrome 120, Windows 10' from a user agent; a plain fallback when nothing is recognised. */
export function describeDevice(userAgent: string): string {
  const { browser, os } = new UAParser(userAgent).getResult();
  const parts = [
    [browser.name, browser.major].filter(Boolean).join(' '),
    [os.name, os.version].filter(Boolean).join(' '),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'неизвестное устройство';
}

/**
 * Sends "new sign-in" messages, with a button that ends that session, as sessions are created.
 * Sessions may be created inside a transaction that commits a moment later, so the session is
 * looked up a few times before giving up; a rolled-back sign-in is never announced.
 */
export class SignInNotices {
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly api: Api,
    private readonly log: { warn(obj: object, message: string): void },
  ) {}

  /** The listener for SessionStore.onCreated: schedules, never throws. */
  readonly onSessionCreated = (session: SessionRow) => {
    if (this.stopped) return;
    const task = this.announce(session.id)
      .catch((error) => this.log.warn({ err: error }, 'telegram sign-in notice failed'))
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  };

  /** Waits for notices under way (shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.drain();
  }

  private async announce(sessionId: string) {
    for (let attempt = 0; attempt < 5 && !this.stopped; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const [session] = await this.db
        .select()
        .from(sessions)
        .where(eq(sessions.id, sessionId))
        .limit(1);
      const user = session && (await findUserById(this.db, session.userId));
      if (!session || !user) continue;
      if (user.telegramId === null) return;
      const text = BOT_TEXT.signIn({
        userName: user.userName,
        device: describeDevice(session.userAgent),
        ip: session.ipAddress,
        when: `${moscowTime.format(session.createdAt)} (МСК)`,
        ...(session.clientOrigin ? { via: session.clientOrigin } : {}),
      });
      await this.api.sendMessage(user.telegramId, text, {
        reply_markup: {
          inline_keyboard: [
            [{ text: BOT_TEXT.endSessionButton, callback_data: endSessionData(sessionId) }],
          ],
        },
      });
      return;
    }
  }
}
