import { CODE_WRONG } from '@portal/contracts/messages';
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import type { SecondFactor } from '../auth/index.js';
import type { EventClient, SecurityLog } from '../security-log/index.js';
import { TWO_FACTOR_MESSAGES } from './messages.js';
import {
  generateRecoveryCodes,
  normalizeRecoveryCode,
  RecoveryCodeHasher,
} from './recovery-codes.js';
import { twoFactorAuthenticators, twoFactorRecoveryCodes } from './schema.js';
import { SecretBox } from './secret-box.js';
import { generateTotpSecret, matchTotpStep, otpauthUrl } from './totp.js';

export interface Enrollment {
  /** PNG of the otpauth URI, base64 without a `data:` prefix. */
  qrCode: string;
  /** Base32, for typing into the app by hand. */
  secret: string;
  otpauthUrl: string;
}

/** Which kind of second factor a code turned out to be; null when it was refused. */
export type SecondFactorMatch = 'totp' | 'recovery' | null;

export interface TwoFactorServiceDeps {
  db: Db;
  clock: Clock;
  secretKey: string;
  /** Shown by the authenticator app above the code. */
  issuer: string;
  /** Where enabling, disabling and a spent recovery code are recorded. */
  securityLog: SecurityLog;
}

const conflict = (message: string) => new AppError('conflict', message);

/**
 * The authenticator app: a pending secret until a code proves the app has it, then
 * codes of SHA-1, 6 digits, 30 s, ±1 step, each step accepted once; ten single-use recovery codes.
 */
export class TwoFactorService implements SecondFactor {
  private readonly box: SecretBox;
  private readonly hasher: RecoveryCodeHasher;

  constructor(private readonly deps: TwoFactorServiceDeps) {
    this.box = new SecretBox(deps);
    this.hasher = new RecoveryCodeHasher(deps);
  }

  async isEnabled(userId: string, executor: Executor = this.deps.db): Promise<boolean> {
    const [row] = await executor
      .select({ userId: twoFactorAuthenticators.userId })
      .from(twoFactorAuthenticators)
      .where(
        and(
          eq(twoFactorAuthenticators.userId, userId),
          isNotNull(twoFactorAuthenticators.enabledAt),
        ),
      );
    return row !== undefined;
  }

  /** A new pending secret (replacing an earlier pending one); refused while one is active. */
  async beginEnrollment(user: { id: string; account: string }): Promise<Enrollment> {
    const secret = generateTotpSecret();
    const sealed = this.box.seal(secret, user.id);
    const rows = await this.deps.db
      .insert(twoFactorAuthenticators)
      .values({ userId: user.id, secretSealed: sealed, createdAt: this.deps.clock.now() })
      .onConflictDoUpdate({
        target: twoFactorAuthenticators.userId,
        set: { secretSealed: sealed, lastUsedStep: null, createdAt: this.deps.clock.now() },
        setWhere: isNull(twoFactorAuthenticators.enabledAt),
      })
      .returning({ userId: twoFactorAuthenticators.userId });
    if (rows.length === 0) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
    const url = otpauthUrl(secret, this.deps.issuer, user.account);
    // Loaded when an authenticator is first connected, not at start.
    const { default: QRCode } = await import('qrcode');
    const png = await QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 2 });
    return { qrCode: png.toString('base64'), secret, otpauthUrl: url };
  }

  /**
   * Activates the pending secret when `code` is right, and answers fresh recovery codes (shown
   * once). Throws 400 'Неверный код' otherwise; a missing pending secret is a 409.
   */
  async confirmEnrollment(userId: string, code: string, client: EventClient): Promise<string[]> {
    const row = await this.authenticator(userId);
    if (!row || row.enabledAt) {
      throw conflict(row ? TWO_FACTOR_MESSAGES.alreadyEnabled : TWO_FACTOR_MESSAGES.notPending);
    }
    return this.deps.db.transaction(async (tx) => {
      const accepted = await this.acceptTotp(row, code, tx, { activate: true });
      if (!accepted) throw wrongCode();
      await this.deps.securityLog.record(tx, userId, 'two_factor_enabled', client);
      return this.replaceRecoveryCodes(userId, tx);
    });
  }

  /**
   * Checks a second factor of an account whose authenticator is on: a TOTP code (its step then
   * spent) or a recovery code (then spent). Answers null for a wrong code, a replayed step, or an
   * account without an active authenticator.
   */
  async verifySecondFactor(
    userId: string,
    code: string,
    client: EventClient,
    executor: Executor = this.deps.db,
  ): Promise<SecondFactorMatch> {
    const input = code.trim();
    const row = await this.authenticator(userId, executor);
    if (!row?.enabledAt) return null;
    if (/^\d{6}$/.test(input)) {
      return (await this.acceptTotp(row, input, executor)) ? 'totp' : null;
    }
    const normalized = normalizeRecoveryCode(input);
    if (!normalized) return null;
    const spent = await executor
      .update(twoFactorRecoveryCodes)
      .set({ usedAt: this.deps.clock.now() })
      .where(
        and(
          eq(twoFactorRecoveryCodes.userId, userId),
          eq(twoFactorRecoveryCodes.codeHash, this.hasher.hash(userId, normalized)),
          isNull(twoFactorRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    if (spent.length === 0) return null;
    await this.deps.securityLog.record(executor, userId, 'recovery_code_used', client);
    return 'recovery';
  }

  /**
   * The login port (auth/second-factor.ts): the authenticator's code or a recovery code, each
   * usable once. Login counts a `false` toward the account's lock.
   */
  async verifyLoginCode(userId: string, code: string, client: EventClient): Promise<boolean> {
    return (await this.verifySecondFactor(userId, code, client)) !== null;
  }

  /** Switches the authenticator off after a valid code; its recovery codes go with it. */
  async disable(userId: string, code: string, client: EventClient): Promise<void> {
    if (!(await this.isEnabled(userId))) throw conflict(TWO_FACTOR_MESSAGES.notEnabled);
    await this.deps.db.transaction(async (tx) => {
      if (!(await this.verifySecondFactor(userId, code, client, tx))) throw wrongCode();
      await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
      await tx.delete(twoFactorAuthenticators).where(eq(twoFactorAuthenticators.userId, userId));
      await this.deps.securityLog.record(tx, userId, 'two_factor_disabled', client);
    });
  }

  /**
   * Switches the authenticator off without a code, in the caller's transaction: support's way back
   * for an owner who lost the phone and the recovery codes (the operator tool checks who asks).
   * Answers whether it was on.
   */
  async disableBySupport(tx: Executor, userId: string, client: EventClient): Promise<boolean> {
    await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    const removed = await tx
      .delete(twoFactorAuthenticators)
      .where(eq(twoFactorAuthenticators.userId, userId))
      .returning({ userId: twoFactorAuthenticators.userId });
    if (removed.length === 0) return false;
    await this.deps.securityLog.record(tx, userId, 'two_factor_disabled', client);
    return true;
  }

  /** New recovery codes after a valid code; every earlier one stops working. */
  async regenerateRecoveryCodes(
    userId: string,
    code: string,
    client: EventClient,
  ): Promise<string[]> {
    if (!(await this.isEnabled(userId))) throw conflict(TWO_FACTOR_MESSAGES.notEnabled);
    return this.deps.db.transaction(async (tx) => {
      if (!(await this.verifySecondFactor(userId, code, client, tx))) throw wrongCode();
      return this.replaceRecoveryCodes(userId, tx);
    });
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const [row] = await this.deps.db
      .select({ count: sql<number>`count(*)::int` })
      .from(twoFactorRecoveryCodes)
      .where(and(eq(twoFactorRecoveryCodes.userId, userId), isNull(twoFactorRecoveryCodes.usedAt)));
    return row?.count ?? 0;
  }

  private async authenticator(userId: string, executor: Executor = this.deps.db) {
    const [row] = await executor
      .select()
      .from(twoFactorAuthenticators)
      .where(eq(twoFactorAuthenticators.userId, userId));
    return row;
  }

  /**
   * Accepts `code` when it matches a step within ±1 of now that is later than every step used
   * before. The conditional update makes two simultaneous submissions of one code race for the
   * same row: exactly one wins.
   */
  private async acceptTotp(
    row: typeof twoFactorAuthenticators.$inferSelect,
    code: string,
    executor: Executor,
    options: { activate?: boolean } = {},
  ): Promise<boolean> {
    const secret = this.box.open(row.secretSealed, row.userId);
    if (!secret) return false;
    const now = this.deps.clock.now();
    const step = matchTotpStep(secret, code, now);
    if (step === null) return false;
    const accepted = await executor
      .update(twoFactorAuthenticators)
      .set({ lastUsedStep: step, ...(options.activate ? { enabledAt: now } : {}) })
      .where(
        and(
          eq(twoFactorAuthenticators.userId, row.userId),
          eq(twoFactorAuthenticators.secretSealed, row.secretSealed),
          options.activate
            ? isNull(twoFactorAuthenticators.enabledAt)
            : isNotNull(twoFactorAuthenticators.enabledAt),
          or(
            isNull(twoFactorAuthenticators.lastUsedStep),
            lt(twoFactorAuthenticators.lastUsedStep, step),
          ),
        ),
      )
      .returning({ userId: twoFactorAuthenticators.userId });
    return accepted.length > 0;
  }

  private async replaceRecoveryCodes(userId: string, executor: Executor): Promise<string[]> {
    const codes = generateRecoveryCodes();
    await executor.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
    await executor.insert(twoFactorRecoveryCodes).values(
      codes.map((code) => ({
        userId,
        codeHash: this.hasher.hash(userId, normalizeRecoveryCode(code)!),
        createdAt: this.deps.clock.now(),
      })),
    );
    return codes;
  }
}

export function wrongCode(): AppError {
  return new AppError('invalid_input', CODE_WRONG, { errors: { code: [CODE_WRONG] } });
}
