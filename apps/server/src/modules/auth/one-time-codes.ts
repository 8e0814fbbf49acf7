/**
 * One-time codes: the one service behind every six-digit code the portal mails — registration,
 * password reset and change, both steps of the e-mail change, and the proof of the owner.
 *
 * Rules: six digits from a CSPRNG, stored only as HMAC-SHA256(SECRET_KEY, purpose, subject, code);
 * bound to one `purpose` and one `subject`; valid 10 minutes; single use (two simultaneous
 * submissions of the right code: exactly one wins); at most 5 tries, each counted before the check
 * and committed on its own, so no rollback refunds it; a new code replaces the old one; resending
 * waits 60 s after the first code and 30 s after each resend, and at most 6 codes per hour.
 *
 * API (`app.deps.codes`):
 *
 *   issue({ purpose, subject, userId?, payload? }, executor?)
 *     → { code, expiresAt, resendAfterSeconds }. Called only through `issueMailedCode`
 *       (mailed-codes.ts), which queues the code's letter in the same transaction, with
 *       `issued.expiresAt` as the letter's expiry: a letter the outbox could not send in time is
 *       then dropped, not sent useless. Throws `CodeResendRefused` (an AppError, 429 with
 *       Retry-After) inside the countdown or over the hourly cap; callers that want to stay
 *       quiet (e.g. a best-effort resend) catch it.
 *
 *   const result = await codes.redeem({ purpose, subject, code }, async (redeemed, tx) => {...});
 *     → { ok: true, value, redeemed } | { ok: false, reason }. Counts the try, checks the code,
 *       and on a match marks it used and runs the callback in ONE transaction that it opens
 *       itself: if the callback throws, the code stays usable and the error propagates. Call it
 *       outside any transaction (the try must commit on its own). `reason` is 'wrong' | 'expired'
 *       | 'exhausted' | 'missing' (none, used, or replaced); `codeRefusal(reason)` is the
 *       matching 400 with the Russian message under `errors.code`.
 *
 *   const checked = await codes.check({ purpose, subject, code });
 *     → { ok: true } | { ok: false, reason, triesLeft? }. Whether the code is right, WITHOUT using
 *       it up, for a screen that checks the code before asking for the rest (the password
 *       change). The try is counted exactly as `redeem` counts it, so checking is no way around
 *       the 5 tries; a right code gives its try back, so the `redeem` that follows still has it.
 *       `triesLeft` comes with 'wrong'; `codeRefusal(reason, 'code', triesLeft)` says it.
 *
 *   await codes.discard({ purpose, subject }, executor?);   // forget the live code, if any
 *
 * `purpose` is a short name owned by the caller ('registration', 'password-reset', …).
 * `subject` is what the code is bound to: a user id, or an e-mail key when no account is known
 * yet; `{ purpose, subject }` identifies the code, so the client never has to send an id.
 * `payload` (JSON) travels with the code, e.g. the new address of an e-mail change.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  ONE_TIME_CODE_LENGTH,
  ONE_TIME_CODE_MAX_ATTEMPTS,
  ONE_TIME_CODE_TTL_MINUTES,
  RESEND_COUNTDOWN_FIRST_SECONDS,
  RESEND_COUNTDOWN_NEXT_SECONDS,
} from '@portal/contracts/constants';
import {
  CODE_ATTEMPTS_EXHAUSTED,
  CODE_EXPIRED,
  CODE_TRIES_LEFT,
  CODE_WRONG,
} from '@portal/contracts/messages';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor, Tx } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { oneTimeCodes } from './schema.js';

const SECOND = 1000;
const HOUR = 3600 * SECOND;

const ONE_TIME_CODE_RULES = {
  ttlMs: ONE_TIME_CODE_TTL_MINUTES * 60 * SECOND,
  maxAttempts: ONE_TIME_CODE_MAX_ATTEMPTS,
  firstResendAfterMs: RESEND_COUNTDOWN_FIRST_SECONDS * SECOND,
  nextResendAfterMs: RESEND_COUNTDOWN_NEXT_SECONDS * SECOND,
  sendsPerHour: 6,
} as const;

export interface IssueCodeInput {
  purpose: string;
  subject: string;
  /** The account the code belongs to, when there is one (deleted with it). */
  userId?: string | null;
  payload?: unknown;
}

export interface IssuedCode {
  /** The six digits to mail. Never stored, never logged. */
  code: string;
  expiresAt: Date;
  /** When the next `issue` for the same purpose and subject will be accepted. */
  resendAfterSeconds: number;
}

export interface RedeemedCode {
  purpose: string;
  subject: string;
  userId: string | null;
  payload: unknown;
}

export type CodeFailure = 'wrong' | 'expired' | 'exhausted' | 'missing';

export type RedeemResult<T> =
  | { ok: true; value: T; redeemed: RedeemedCode }
  | { ok: false; reason: CodeFailure };

export type CheckResult = { ok: true } | { ok: false; reason: CodeFailure; triesLeft?: number };

/** 429 for a resend inside the countdown or over the hourly cap; `secondsLeft` is Retry-After. */
export class CodeResendRefused extends AppError {
  constructor(
    readonly reason: 'countdown' | 'hourly-cap',
    readonly secondsLeft: number,
  ) {
    super(
      'too_many_requests',
      reason === 'countdown'
        ? `Повторно отправить код можно через ${secondsLeft} с`
        : `Слишком много запросов кода. Попробуйте через ${Math.ceil(secondsLeft / 60)} мин`,
      // Inside the countdown the code mailed last is still good (after the hourly cap it may not be).
      { retryAfter: secondsLeft, ...(reason === 'countdown' ? { reason: 'code_pending' } : {}) },
    );
  }
}

const FAILURE_MESSAGES: Record<CodeFailure, string> = {
  wrong: CODE_WRONG,
  missing: CODE_WRONG,
  expired: CODE_EXPIRED,
  exhausted: CODE_ATTEMPTS_EXHAUSTED,
};

/**
 * The 400 a route answers for a refused code; the web shows 'Неверный код' and red boxes. With
 * `triesLeft` (a caller who may know it) a wrong code says how many are left, and the last one
 * spent says that a new code is needed.
 */
export function codeRefusal(reason: CodeFailure, field = 'code', triesLeft?: number): AppError {
  let message = FAILURE_MESSAGES[reason];
  if (reason === 'wrong' && triesLeft !== undefined) {
    message =
      triesLeft > 0 ? `${CODE_WRONG}. ${CODE_TRIES_LEFT} ${triesLeft}` : CODE_ATTEMPTS_EXHAUSTED;
  }
  return new AppError('invalid_input', message, { errors: { [field]: [message] } });
}

export function generateCode(): string {
  return String(randomInt(0, 10 ** ONE_TIME_CODE_LENGTH)).padStart(ONE_TIME_CODE_LENGTH, '0');
}

const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;

export interface OneTimeCodesDeps {
  db: Db;
  clock: Clock;
  /** SECRET_KEY: the codes are stored as its HMAC. */
  secretKey: string;
}

export class OneTimeCodes {
  constructor(private readonly deps: OneTimeCodesDeps) {}

  private hash(purpose: string, subject: string, code: string): string {
    return createHmac('sha256', this.deps.secretKey)
      .update(`${purpose}\n${subject}\n${code}`)
      .digest('hex');
  }

  /**
   * Issues a fresh code, replacing any earlier one. One conditional upsert decides everything,
   * so two concurrent requests cannot both slip through the countdown.
   */
  async issue(input: IssueCodeInput, executor: Executor = this.deps.db): Promise<IssuedCode> {
    const now = this.deps.clock.now();
    const code = generateCode();
    const expiresAt = new Date(now.getTime() + ONE_TIME_CODE_RULES.ttlMs);
    const codeHash = this.hash(input.purpose, input.subject, code);
    const hourAgo = at(new Date(now.getTime() - HOUR));
    const isLive = sql`(${oneTimeCodes.consumedAt} IS NULL AND ${oneTimeCodes.expiresAt} > ${at(now)})`;
    const waitSeconds = sql`(CASE WHEN ${oneTimeCodes.sendCount} <= 1 THEN ${RESEND_COUNTDOWN_FIRST_SECONDS}::int ELSE ${RESEND_COUNTDOWN_NEXT_SECONDS}::int END)`;
    const inHour = sql`${oneTimeCodes.hourStartedAt} > ${hourAgo}`;

    const rows = await executor
      .insert(oneTimeCodes)
      .values({
        purpose: input.purpose,
        subject: input.subject,
        userId: input.userId ?? null,
        codeHash,
        payload: input.payload ?? null,
        attempts: 0,
        expiresAt,
        consumedAt: null,
        sentAt: now,
        sendCount: 1,
        hourStartedAt: now,
        hourSends: 1,
        createdAt: now,
      })
      .onConflictDoUpdate({
        target: [oneTimeCodes.purpose, oneTimeCodes.subject],
        set: {
          userId: sql`excluded.user_id`,
          codeHash: sql`excluded.code_hash`,
          payload: sql`excluded.payload`,
          attempts: 0,
          expiresAt: sql`excluded.expires_at`,
          consumedAt: null,
          sentAt: sql`excluded.sent_at`,
          // A used or expired code ends the run: the next one is a "first" code again.
          sendCount: sql`CASE WHEN ${isLive} THEN ${oneTimeCodes.sendCount} + 1 ELSE 1 END`,
          hourStartedAt: sql`CASE WHEN ${inHour} THEN ${oneTimeCodes.hourStartedAt} ELSE excluded.sent_at END`,
          hourSends: sql`CASE WHEN ${inHour} THEN ${oneTimeCodes.hourSends} + 1 ELSE 1 END`,
        },
        setWhere: sql`(${oneTimeCodes.consumedAt} IS NOT NULL
            OR ${oneTimeCodes.sentAt} <= ${at(now)} - ${waitSeconds} * interval '1 second')
          AND (NOT ${inHour} OR ${oneTimeCodes.hourSends} < ${ONE_TIME_CODE_RULES.sendsPerHour}::int)`,
      })
      .returning({ sendCount: oneTimeCodes.sendCount });

    const row = rows[0];
    if (!row) throw await this.refusal(input, now, executor);
    const nextWaitMs =
      row.sendCount <= 1
        ? ONE_TIME_CODE_RULES.firstResendAfterMs
        : ONE_TIME_CODE_RULES.nextResendAfterMs;
    return { code, expiresAt, resendAfterSeconds: nextWaitMs / SECOND };
  }

  /** Why `issue` was refused: the hourly cap wins over the countdown (it is the longer wait). */
  private async refusal(input: IssueCodeInput, now: Date, executor: Executor) {
    const [row] = await executor
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.purpose, input.purpose), eq(oneTimeCodes.subject, input.subject)));
    if (!row) throw new Error('one-time code upsert refused without a row');
    const nowMs = now.getTime();
    const hourEnds = row.hourStartedAt.getTime() + HOUR;
    if (hourEnds > nowMs && row.hourSends >= ONE_TIME_CODE_RULES.sendsPerHour) {
      return new CodeResendRefused('hourly-cap', Math.ceil((hourEnds - nowMs) / SECOND));
    }
    const wait =
      row.sendCount <= 1
        ? ONE_TIME_CODE_RULES.firstResendAfterMs
        : ONE_TIME_CODE_RULES.nextResendAfterMs;
    const left = Math.max(1, Math.ceil((row.sentAt.getTime() + wait - nowMs) / SECOND));
    return new CodeResendRefused('countdown', left);
  }

  /**
   * Counts a try (committed on its own, before the code is looked at) and compares the code:
   * the live row and whether it matched, or why there is no live code.
   */
  private async countTry(
    input: { purpose: string; subject: string; code: string },
    now: Date,
  ): Promise<
    | { row: typeof oneTimeCodes.$inferSelect; isMatch: boolean }
    | { reason: Exclude<CodeFailure, 'wrong'> }
  > {
    const where = and(
      eq(oneTimeCodes.purpose, input.purpose),
      eq(oneTimeCodes.subject, input.subject),
    );
    // One conditional update: of any number of simultaneous tries, at most `maxAttempts` count.
    const [counted] = await this.deps.db
      .update(oneTimeCodes)
      .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
      .where(
        and(
          where,
          isNull(oneTimeCodes.consumedAt),
          gt(oneTimeCodes.expiresAt, now),
          lt(oneTimeCodes.attempts, ONE_TIME_CODE_RULES.maxAttempts),
        ),
      )
      .returning();
    if (!counted) return { reason: await this.whyNotLive(where, now) };
    const expected = Buffer.from(counted.codeHash, 'hex');
    const actual = Buffer.from(this.hash(input.purpose, input.subject, input.code.trim()), 'hex');
    const isMatch = expected.length === actual.length && timingSafeEqual(expected, actual);
    return { row: counted, isMatch };
  }

  /** Whether `code` is the live one, without using it up (see the top of the file). */
  async check(input: { purpose: string; subject: string; code: string }): Promise<CheckResult> {
    const tried = await this.countTry(input, this.deps.clock.now());
    if ('reason' in tried) return { ok: false, reason: tried.reason };
    const { row, isMatch } = tried;
    if (!isMatch) {
      return {
        ok: false,
        reason: 'wrong',
        triesLeft: Math.max(0, ONE_TIME_CODE_RULES.maxAttempts - row.attempts),
      };
    }
    // Only someone who knows the code gets a try back, so no guess is ever refunded.
    await this.deps.db
      .update(oneTimeCodes)
      .set({ attempts: sql`${oneTimeCodes.attempts} - 1` })
      .where(
        and(
          eq(oneTimeCodes.id, row.id),
          eq(oneTimeCodes.codeHash, row.codeHash),
          gt(oneTimeCodes.attempts, 0),
        ),
      );
    return { ok: true };
  }

  /** Checks a submitted code and, when it matches, uses it up together with `onRedeemed`. */
  async redeem<T>(
    input: { purpose: string; subject: string; code: string },
    onRedeemed: (redeemed: RedeemedCode, tx: Tx) => Promise<T>,
  ): Promise<RedeemResult<T>> {
    const now = this.deps.clock.now();
    const tried = await this.countTry(input, now);
    if ('reason' in tried) return { ok: false, reason: tried.reason };
    if (!tried.isMatch) return { ok: false, reason: 'wrong' };
    const counted = tried.row;

    return this.deps.db.transaction(async (tx): Promise<RedeemResult<T>> => {
      // Single use: of two submissions of the right code, only one finds it unused.
      const [used] = await tx
        .update(oneTimeCodes)
        .set({ consumedAt: now })
        .where(
          and(
            eq(oneTimeCodes.id, counted.id),
            eq(oneTimeCodes.codeHash, counted.codeHash),
            isNull(oneTimeCodes.consumedAt),
          ),
        )
        .returning();
      if (!used) return { ok: false, reason: 'missing' };
      const redeemed: RedeemedCode = {
        purpose: used.purpose,
        subject: used.subject,
        userId: used.userId,
        payload: used.payload,
      };
      return { ok: true, value: await onRedeemed(redeemed, tx), redeemed };
    });
  }

  private async whyNotLive(
    where: ReturnType<typeof and>,
    now: Date,
  ): Promise<Exclude<CodeFailure, 'wrong'>> {
    const [row] = await this.deps.db.select().from(oneTimeCodes).where(where);
    if (!row || row.consumedAt) return 'missing';
    if (row.expiresAt <= now) return 'expired';
    return 'exhausted';
  }

  /** Forgets the live code of this purpose and subject (a cancelled flow, a deleted account). */
  async discard(
    input: { purpose: string; subject: string },
    executor: Executor = this.deps.db,
  ): Promise<void> {
    // Marked used rather than deleted, so the hourly cap still remembers it.
    await executor
      .update(oneTimeCodes)
      .set({ consumedAt: this.deps.clock.now() })
      .where(
        and(
          eq(oneTimeCodes.purpose, input.purpose),
          eq(oneTimeCodes.subject, input.subject),
          isNull(oneTimeCodes.consumedAt),
        ),
      );
  }
}
