import type { Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { findUserById, findUserByTelegramId, updateUser } from '../accounts/index.js';
import type { SessionStore } from '../auth/index.js';
import { NO_CLIENT, type SecurityLog } from '../security-log/index.js';
import { useLinkToken } from './link-tokens.js';
import { BOT_TEXT } from './messages.js';

export interface BotDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  securityLog: SecurityLog;
  log: { warn(obj: object, message: string): void; error(obj: object, message: string): void };
}

const END_SESSION_DATA = /^end-session:([0-9a-f-]{36})$/;
export const endSessionData = (sessionId: string) => `end-session:${sessionId}`;

type LinkOutcome =
  | { kind: 'linked' | 'already-linked'; userName: string }
  | { kind: 'refused'; text: string };

class LinkRefused extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

/**
 * The portal's bot (grammY): `/start <token>` links the Telegram account to the user who
 * asked for the link, then asks for the phone number; the user's own contact connects the phone;
 * the button under a sign-in notice ends that session.
 */
export async function createPortalBot(
  token: string,
  options: { apiRoot: string; botInfo?: UserFromGetMe },
  deps: BotDeps,
) {
  // Loaded only when a bot is configured: grammY is a noticeable part of a start without one.
  const { Bot } = await import('grammy');
  const bot = new Bot(token, {
    client: { apiRoot: options.apiRoot.replace(/\/+$/, '') },
    ...(options.botInfo ? { botInfo: options.botInfo } : {}),
  });
  const privateChats = bot.chatType('private');

  privateChats.command('start', async (ctx) => {
    const payload = ctx.match.trim();
    if (!payload) return void (await ctx.reply(BOT_TEXT.startWithoutToken));
    const outcome = await linkTelegram(deps, payload, ctx.from.id);
    if (outcome.kind === 'refused') return void (await ctx.reply(outcome.text));
    await ctx.reply(
      outcome.kind === 'linked'
        ? BOT_TEXT.linked(outcome.userName)
        : BOT_TEXT.alreadyLinked(outcome.userName),
    );
    await askForPhone(ctx);
  });

  privateChats.on('message:contact', async (ctx) => {
    const contact = ctx.message.contact;
    const user = await findUserByTelegramId(deps.db, ctx.from.id);
    if (!user) return void (await ctx.reply(BOT_TEXT.notLinked));
    // Only a contact the user shared of themselves proves the number is theirs.
    if (contact.user_id !== ctx.from.id) {
      await ctx.reply(BOT_TEXT.notOwnContact);
      return askForPhone(ctx);
    }
    const phone = normalizePhone(contact.phone_number);
    if (!phone) return void (await ctx.reply(BOT_TEXT.notOwnContact));
    await updateUser(deps.db, user.id, { phone, updatedAt: deps.clock.now() });
    await ctx.reply(BOT_TEXT.phoneConnected(phone), { reply_markup: { remove_keyboard: true } });
  });

  bot.callbackQuery(END_SESSION_DATA, async (ctx) => {
    const sessionId = ctx.match[1]!;
    const user = await findUserByTelegramId(deps.db, ctx.from.id);
    // Only the Telegram account linked to the session's user can end it.
    const ended = user ? await deps.sessions.revoke(user.id, sessionId) : false;
    // Pressed in Telegram: the update comes from Telegram's servers, not from the owner's browser.
    if (user && ended) {
      await deps.securityLog.record(deps.db, user.id, 'session_ended', NO_CLIENT, {
        via: 'telegram',
      });
    }
    await ctx.answerCallbackQuery({
      text: ended ? BOT_TEXT.sessionEnded : BOT_TEXT.sessionAlreadyEnded,
    });
    if (ctx.callbackQuery.message) {
      await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => {});
    }
  });

  bot.catch(({ error, ctx }) => {
    deps.log.error({ err: error, updateId: ctx.update.update_id }, 'telegram update failed');
  });

  return bot;
}

async function askForPhone(ctx: Context) {
  await ctx.reply(BOT_TEXT.askPhone, {
    reply_markup: {
      keyboard: [[{ text: BOT_TEXT.sharePhoneButton, request_contact: true }]],
      resize_keyboard: true,
      one_time_keyboard: true,
    },
  });
}

/** Links in one transaction: the token is used up only when the link is actually made. */
async function linkTelegram(
  deps: BotDeps,
  token: string,
  telegramId: number,
): Promise<LinkOutcome> {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx): Promise<LinkOutcome> => {
      const use = await useLinkToken(tx, token, now);
      if (!use.ok) {
        const text = {
          used: BOT_TEXT.tokenUsed,
          expired: BOT_TEXT.tokenExpired,
          unknown: BOT_TEXT.tokenUnknown,
        }[use.reason];
        return { kind: 'refused', text };
      }
      const user = await findUserById(tx, use.userId);
      if (!user) return { kind: 'refused', text: BOT_TEXT.tokenUnknown };
      const holder = await findUserByTelegramId(tx, telegramId);
      if (holder && holder.id !== user.id) throw new LinkRefused(BOT_TEXT.telegramTaken);
      if (user.telegramId !== null && user.telegramId !== telegramId) {
        throw new LinkRefused(BOT_TEXT.accountHasOtherTelegram);
      }
      if (user.telegramId === telegramId)
        return { kind: 'already-linked', userName: user.userName };
      await updateUser(tx, user.id, { telegramId, updatedAt: now });
      await deps.securityLog.record(tx, user.id, 'telegram_linked', NO_CLIENT);
      return { kind: 'linked', userName: user.userName };
    });
  } catch (error) {
    if (error instanceof LinkRefused) return { kind: 'refused', text: error.text };
    // Two accounts linking the same Telegram at once: the unique index lets only one through.
    if (isUniqueViolation(error)) return { kind: 'refused', text: BOT_TEXT.telegramTaken };
    throw error;
  }
}

/** '79001234567', '+7 900 123-45-67' → '+79001234567'; null when it is not a phone number. */
function normalizePhone(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  return `+${digits}`;
}
