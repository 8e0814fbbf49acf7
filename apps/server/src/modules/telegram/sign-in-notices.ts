import type { Api } from 'grammy';
import type { Db } from '../../db/database.js';
import { findUserById } from '../accounts/index.js';
import { findSessionById, type SessionRow } from '../auth/index.js';
import type { NotMeLinks } from '../security/index.js';
import { describeDevice, describeMoment, findSignInEventOf } from '../security-log/index.js';
import { endSessionData } from './bot.js';
import { BOT_TEXT } from './messages.js';

export interface SignInNoticesDeps {
  db: Db;
  /** The bot's API: the notices are sent by the portal's bot. */
  api: Api;
  notMeLinks: NotMeLinks;
  log: { warn(obj: object, message: string): void };
}

/**
 * Sends "new sign-in" messages, with a button that ends that session and the «Это был не я» link
 * of the sign-in (modules/security), as sessions are created.
 * Sessions may be created inside a transaction that commits a moment later, so the session is
 * looked up a few times before giving up; a rolled-back sign-in is never announced. Only an
 * account linked when the session was created is told: a sign-in just before the linking is not
 * announced to the Telegram linked a moment later.
 */
export class SignInNotices {
  private readonly pending = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: SignInNoticesDeps) {}

  /** The listener for SessionStore.onCreated: schedules, never throws. */
  readonly onSessionCreated = (session: SessionRow) => {
    if (this.stopped) return;
    const task = this.announce(session.id, session.userId)
      .catch((error) => this.deps.log.warn({ err: error }, 'telegram sign-in notice failed'))
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

  private async announce(sessionId: string, userId: string) {
    const linkedAtSignIn = (await findUserById(this.deps.db, userId))?.telegramId ?? null;
    if (linkedAtSignIn === null) return;
    for (let attempt = 0; attempt < 5 && !this.stopped; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
      const session = await findSessionById(this.deps.db, sessionId);
      const user = session && (await findUserById(this.deps.db, session.userId));
      if (!session || !user) continue;
      // Unlinked, or linked to another Telegram, while the session was being committed.
      if (user.telegramId !== linkedAtSignIn) return;
      const eventId = await findSignInEventOf(this.deps.db, session);
      const notMeUrl = eventId && this.deps.notMeLinks.url(user.id, eventId, session.createdAt);
      // Telegram takes only public https addresses in buttons; a local portal's link goes in
      // the text instead, so the notice is never refused for it.
      const isButton = notMeUrl?.startsWith('https://') ?? false;
      const text = BOT_TEXT.signIn({
        userName: user.userName,
        device: describeDevice(session.userAgent),
        ip: session.ipAddress,
        when: describeMoment(session.createdAt),
        ...(session.clientOrigin ? { via: session.clientOrigin } : {}),
        ...(notMeUrl && !isButton ? { notMeUrl } : {}),
      });
      const endButton = {
        text: BOT_TEXT.endSessionButton,
        callback_data: endSessionData(sessionId),
      };
      await this.deps.api.sendMessage(user.telegramId, text, {
        reply_markup: {
          inline_keyboard: [
            [endButton],
            ...(notMeUrl && isButton ? [[{ text: BOT_TEXT.notMeButton, url: notMeUrl }]] : []),
          ],
        },
      });
      return;
    }
  }
}
