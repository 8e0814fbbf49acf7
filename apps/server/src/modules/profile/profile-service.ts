import type { UpdateProfileAnswer, UpdateProfileRequest } from '@portal/contracts/profile';
import { eq } from 'drizzle-orm';
import { enforceLimit } from '../../adapters/rate-limit.js';
import type { Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { AppDeps } from '../../deps.js';
import { AppError, invalidInput, notFound } from '../../http/app-error.js';
import {
  emailKey,
  findUserByEmailKey,
  findUserById,
  findUserByUserNameKey,
  normalizeUserName,
  updateUser,
  userNameKey,
} from '../accounts/index.js';
import { codeRefusal, issueMailedCode } from '../auth/index.js';
import type { EventClient } from '../security-log/index.js';
import { findOwnUpload } from '../uploads/index.js';
import {
  currentEmailCodeLetter,
  emailChangedNoticeLetter,
  newEmailCodeLetter,
  takenEmailCodeLetter,
} from './letters.js';
import { PROFILE_MESSAGES } from './messages.js';
import { emailChanges } from './schema.js';

const EMAIL_CHANGE_PURPOSES = {
  current: 'email-change-current',
  next: 'email-change-new',
} as const;

/** After the current address is confirmed, the new one must be given within this time. */
export const CURRENT_CONFIRMATION_TTL_MS = 15 * 60_000;

const HOUR = 3600_000;
/**
 * The new-address step: calls per account, counted before anything else (the code's resend
 * countdown already holds letters back), and letters per address from all accounts together, so
 * many accounts cannot flood one mailbox. A letter is counted after the countdown let it through,
 * so calls refused by it do not use up an address's letters.
 */
export const NEW_EMAIL_LIMITS = {
  perAccount: { limit: 10, windowMs: HOUR },
  perAddress: { limit: 5, windowMs: HOUR },
} as const;

export type ProfileDeps = Pick<
  AppDeps,
  'config' | 'db' | 'clock' | 'codes' | 'mail' | 'rateLimiter' | 'storage' | 'securityLog'
>;

type StoredNames = Omit<UpdateProfileAnswer, 'message'>;

const conflict = (message: string, field: string) =>
  new AppError('conflict', message, { errors: { [field]: [message] } });

/**
 * 'Мои данные', the avatar and the e-mail change: a code to the current address, then one to the
 * new address, and only then the address changes.
 */
export class ProfileService {
  constructor(private readonly deps: ProfileDeps) {}

  /** Answers the four fields as stored (the nickname without its spaces). */
  async updateProfile(userId: string, input: UpdateProfileRequest): Promise<StoredNames> {
    try {
      return await this.deps.db.transaction(async (tx) => {
        const user = await this.requireUser(tx, userId);
        // A name kept as it is passes even if it predates today's username rules.
        const userName =
          input.userName === user.userName
            ? user.userName
            : normalizeUserName(input.userName, 'userName');
        const key = userNameKey(userName);
        const holder = await findUserByUserNameKey(tx, key);
        if (holder && holder.id !== userId) {
          throw conflict(PROFILE_MESSAGES.userNameTaken, 'userName');
        }
        const stored = await updateUser(tx, userId, {
          userName,
          userNameKey: key,
          firstName: input.firstName,
          middleName: input.middleName,
          lastName: input.lastName,
          updatedAt: this.deps.clock.now(),
        });
        if (!stored) throw notFound(PROFILE_MESSAGES.userNotFound);
        return {
          userName: stored.userName,
          firstName: stored.firstName,
          middleName: stored.middleName,
          lastName: stored.lastName,
        };
      });
    } catch (error) {
      // Two users taking the same name at once: the unique index decides.
      if (isUniqueViolation(error)) throw conflict(PROFILE_MESSAGES.userNameTaken, 'userName');
      throw error;
    }
  }

  /** Only an address this storage issued to this very user: not someone else's, not outside. */
  async updateAvatar(userId: string, avatarUrl: string): Promise<void> {
    const refused = invalidInput(PROFILE_MESSAGES.avatarNotOurs, {
      avatarUrl: [PROFILE_MESSAGES.avatarNotOurs],
    });
    if (!this.deps.storage.keyOf(avatarUrl)) throw refused;
    await this.deps.db.transaction(async (tx) => {
      await this.requireUser(tx, userId);
      if (!(await findOwnUpload(tx, userId, avatarUrl))) throw refused;
      await updateUser(tx, userId, { avatarUrl, updatedAt: this.deps.clock.now() });
    });
  }

  /** Step 1: a code to the current address. */
  async sendCurrentEmailCode(userId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const user = await this.requireUser(tx, userId);
      await issueMailedCode(
        this.deps,
        { purpose: EMAIL_CHANGE_PURPOSES.current, subject: userId, userId },
        ({ code, expiresAt }) =>
          currentEmailCodeLetter(this.deps.config, {
            to: user.email,
            firstName: user.firstName || user.userName,
            code,
            expiresAt,
          }),
        tx,
      );
    });
  }

  /** Step 2: the current address's code; opens the window for the new address (this session). */
  async confirmCurrentEmail(userId: string, sessionId: string, code: string): Promise<void> {
    const now = this.deps.clock.now();
    const result = await this.deps.codes.redeem(
      { purpose: EMAIL_CHANGE_PURPOSES.current, subject: userId, code },
      async (_redeemed, tx) => {
        await tx
          .insert(emailChanges)
          .values({ userId, sessionId, currentConfirmedAt: now })
          .onConflictDoUpdate({
            target: emailChanges.userId,
            set: { sessionId, currentConfirmedAt: now },
          });
      },
    );
    if (!result.ok) throw codeRefusal(result.reason);
  }

  /**
   * Step 3: the new address gets its own code, whether or not another account holds it, so this
   * step says nothing about which addresses are registered: only whoever reads that mailbox gets
   * as far as step 4, which refuses a taken address. Both cases do the same work.
   */
  async sendNewEmailCode(userId: string, sessionId: string, email: string): Promise<void> {
    const key = emailKey(email);
    const { rateLimiter } = this.deps;
    await enforceLimit(rateLimiter, `email-change-new:user:${userId}`, NEW_EMAIL_LIMITS.perAccount);
    await this.deps.db.transaction(async (tx) => {
      const user = await this.requireUser(tx, userId);
      await this.requireConfirmedCurrent(tx, userId, sessionId);
      if (key === user.emailKey) {
        throw invalidInput(PROFILE_MESSAGES.emailSame, { email: [PROFILE_MESSAGES.emailSame] });
      }
      const holder = await findUserByEmailKey(tx, key);
      const letter = holder ? takenEmailCodeLetter : newEmailCodeLetter;
      await issueMailedCode(
        this.deps,
        { purpose: EMAIL_CHANGE_PURPOSES.next, subject: userId, userId, payload: { email } },
        async ({ code, expiresAt }) => {
          // Over the limit, the transaction rolls back the code and the letter.
          await enforceLimit(
            rateLimiter,
            `email-change-new:to:${key}`,
            NEW_EMAIL_LIMITS.perAddress,
          );
          const firstName = user.firstName || user.userName;
          return letter(this.deps.config, { to: email, firstName, code, expiresAt });
        },
        tx,
      );
    });
  }

  /** Step 4: the new address's code; only now does the e-mail change. Answers the new address. */
  async confirmNewEmail(
    userId: string,
    sessionId: string,
    code: string,
    client: EventClient,
  ): Promise<string> {
    try {
      const result = await this.deps.codes.redeem(
        { purpose: EMAIL_CHANGE_PURPOSES.next, subject: userId, code },
        async (redeemed, tx) => {
          const user = await this.requireUser(tx, userId);
          const change = await this.findChange(tx, userId);
          if (!change || change.sessionId !== sessionId) {
            throw invalidInput(PROFILE_MESSAGES.currentNotConfirmed);
          }
          const email = (redeemed.payload as { email?: unknown } | null)?.email;
          if (typeof email !== 'string') throw invalidInput(PROFILE_MESSAGES.currentNotConfirmed);
          const key = emailKey(email);
          const holder = await findUserByEmailKey(tx, key);
          if (holder && holder.id !== userId) throw conflict(PROFILE_MESSAGES.emailTaken, 'email');
          await updateUser(tx, userId, { email, emailKey: key, updatedAt: this.deps.clock.now() });
          await tx.delete(emailChanges).where(eq(emailChanges.userId, userId));
          await this.deps.securityLog.record(tx, userId, 'email_changed', client);
          await this.deps.mail.enqueue(
            emailChangedNoticeLetter(this.deps.config, {
              to: user.email,
              firstName: user.firstName || user.userName,
              newEmail: email,
            }),
            tx,
          );
          return email;
        },
      );
      if (!result.ok) throw codeRefusal(result.reason);
      return result.value;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(PROFILE_MESSAGES.emailTaken, 'email');
      throw error;
    }
  }

  private async requireUser(executor: Executor, userId: string) {
    const user = await findUserById(executor, userId);
    if (!user) throw notFound(PROFILE_MESSAGES.userNotFound);
    return user;
  }

  private async findChange(executor: Executor, userId: string) {
    const [row] = await executor
      .select()
      .from(emailChanges)
      .where(eq(emailChanges.userId, userId))
      .limit(1);
    return row ?? null;
  }

  private async requireConfirmedCurrent(executor: Executor, userId: string, sessionId: string) {
    const change = await this.findChange(executor, userId);
    const age = change ? this.deps.clock.now().getTime() - change.currentConfirmedAt.getTime() : 0;
    if (!change || change.sessionId !== sessionId || age > CURRENT_CONFIRMATION_TTL_MS) {
      throw invalidInput(PROFILE_MESSAGES.currentNotConfirmed, {
        email: [PROFILE_MESSAGES.currentNotConfirmed],
      });
    }
  }
}
