import { createHash, randomBytes } from 'node:crypto';
import { TELEGRAM_LINK_TTL_MINUTES } from '@portal/contracts/constants';
import { and, eq, isNull } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { AppError, notFound } from '../../http/app-error.js';
import { findUserById } from '../accounts/index.js';
import { TELEGRAM_MESSAGES } from './messages.js';
import { telegramLinkTokens } from './schema.js';

const LINK_TOKEN_TTL_MS = TELEGRAM_LINK_TTL_MINUTES * 60_000;

/**
 * Telegram's deep-link payload rule: up to 64 characters of A-Z a-z 0-9 _ -. 32 random bytes in
 * base64url are 43 such characters.
 */
const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A fresh link token for the user; earlier unused ones stop working. */
export async function issueLinkToken(executor: Executor, userId: string, now: Date) {
  const token = randomBytes(32).toString('base64url');
  await executor
    .delete(telegramLinkTokens)
    .where(and(eq(telegramLinkTokens.userId, userId), isNull(telegramLinkTokens.usedAt)));
  await executor.insert(telegramLinkTokens).values({
    tokenHash: hashOf(token),
    userId,
    expiresAt: new Date(now.getTime() + LINK_TOKEN_TTL_MS),
    createdAt: now,
  });
  return token;
}

export type LinkTokenUse =
  | { ok: true; userId: string }
  | { ok: false; reason: 'unknown' | 'used' | 'expired' };

/** Uses the token up (single use: of two concurrent uses exactly one gets `ok`). */
export async function useLinkToken(
  executor: Executor,
  token: string,
  now: Date,
): Promise<LinkTokenUse> {
  if (!LINK_TOKEN_PATTERN.test(token)) return { ok: false, reason: 'unknown' };
  const tokenHash = hashOf(token);
  const [row] = await executor
    .select()
    .from(telegramLinkTokens)
    .where(eq(telegramLinkTokens.tokenHash, tokenHash))
    .limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.usedAt) return { ok: false, reason: 'used' };
  if (row.expiresAt <= now) return { ok: false, reason: 'expired' };
  const used = await executor
    .update(telegramLinkTokens)
    .set({ usedAt: now })
    .where(and(eq(telegramLinkTokens.tokenHash, tokenHash), isNull(telegramLinkTokens.usedAt)))
    .returning({ userId: telegramLinkTokens.userId });
  return used[0] ? { ok: true, userId: used[0].userId } : { ok: false, reason: 'used' };
}

export interface TelegramLinksDeps {
  config: Pick<Config, 'TELEGRAM_BOT_USERNAME'>;
  db: Db;
  clock: Clock;
  /** A bot token is configured: without one nothing can be linked. */
  isBotOn: boolean;
}

/** The t.me link that links the owner's Telegram: the bot's address with a fresh link token. */
export class TelegramLinks {
  constructor(private readonly deps: TelegramLinksDeps) {}

  /** `assertProven` refuses a session that has not just proved its owner. */
  async create(userId: string, assertProven: () => Promise<void>): Promise<string> {
    const { config, db, clock, isBotOn } = this.deps;
    if (!isBotOn) throw new AppError('unavailable', TELEGRAM_MESSAGES.notConfigured);
    await assertProven();
    const user = await findUserById(db, userId);
    if (!user) throw notFound(TELEGRAM_MESSAGES.userNotFound);
    if (user.telegramId !== null) throw new AppError('conflict', TELEGRAM_MESSAGES.alreadyLinked);
    const token = await issueLinkToken(db, userId, clock.now());
    const link = new URL(`https://t.me/${config.TELEGRAM_BOT_USERNAME}`);
    link.searchParams.set('start', token);
    return link.toString();
  }
}
