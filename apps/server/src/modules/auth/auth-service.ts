/**
 * Registration, confirmation, login and the current user (DESIGN §3). Routes stay thin; every
 * rule lives here. Writes of one call are one transaction, letters included.
 */
import { randomBytes } from 'node:crypto';
import type { LoginAnswer, LoginRequest, RegisterRequest, User } from '@portal/contracts/auth';
import {
  ACCOUNT_NOT_CONFIRMED,
  CODE_WRONG,
  LOGIN_FAILED,
  USERNAME_TAKEN,
} from '@portal/contracts/messages';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../adapters/clock.js';
import type { Mailer } from '../../adapters/mail.js';
import { enforceLimit, type RateLimiter } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, unauthorized } from '../../http/app-error.js';
import { emailKey, loginKeys, normalizeUserName, userNameKey } from './identity.js';
import { registrationAttemptLetter, registrationCodeLetter } from './letters.js';
import { accountSubject, LOGIN_THROTTLE_RULES, type LoginThrottle } from './login-throttle.js';
import { CodeResendRefused, codeRefusal, type OneTimeCodes } from './one-time-codes.js';
import { assertPasswordAllowed } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { type UserRow, users } from './schema.js';
import type { SecondFactor } from './second-factor.js';
import type { SessionStore } from './sessions.js';
import { findUserByEmailKey, findUserByLogin, findUserByUserNameKey } from './users-repository.js';

const REGISTRATION_PURPOSE = 'registration';

const MINUTE = 60_000;

/** Per source address limits of the calls that send mail or check a secret (DESIGN §7). */
const AUTH_ADDRESS_LIMITS = {
  register: { limit: 20, windowMs: 60 * MINUTE },
  verifyRegistration: { limit: 30, windowMs: 15 * MINUTE },
  login: LOGIN_THROTTLE_RULES.perAddress,
} as const;

/** An unconfirmed account this old no longer holds its username against a new registration. */
const UNCONFIRMED_HOLD_MS = 24 * 60 * MINUTE;

export interface ClientInfo {
  ipAddress: string;
  userAgent: string;
}

// One hash of a password nobody knows: an unknown login is checked against it, so it costs the
// same time as a known one. Shared by every app in the process.
let dummyHash: Promise<string> | undefined;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummyHash;
}

const loginFailed = () => new AppError('unauthorized', LOGIN_FAILED);

export interface AuthServiceDeps {
  config: Config;
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  codes: OneTimeCodes;
  mail: Mailer;
  rateLimiter: RateLimiter;
  loginThrottle: LoginThrottle;
  /** Read on every call, so a module can plug in its own implementation after build. */
  secondFactor: () => SecondFactor;
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {
    void dummyPasswordHash();
  }

  // ------------------------------------------------------------------ registration

  /**
   * Creates an unconfirmed account and mails a code; for an unconfirmed address again, updates
   * the details and resends (inside the countdown: 429). A taken username is 409. A confirmed
   * address answers exactly like success, with the same countdown, and its owner gets a letter.
   */
  async register(input: RegisterRequest, client: ClientInfo): Promise<void> {
    const { config, rateLimiter } = this.deps;
    await enforceLimit(
      rateLimiter,
      `register:ip:${client.ipAddress}`,
      AUTH_ADDRESS_LIMITS.register,
    );
    const userName = normalizeUserName(input.username);
    const email = input.email.trim();
    const key = emailKey(email);
    assertPasswordAllowed(input.password, { userName, email });
    // Hashed on every path, so a taken address costs the same time as a new one.
    const passwordHash = await hashPassword(input.password);

    const attempt = () =>
      this.deps.db.transaction(async (tx) => {
        const owner = await findUserByEmailKey(tx, key, { forUpdate: true });
        await this.freeUserName(tx, userNameKey(userName), owner?.id);

        if (owner?.confirmedAt) {
          // Same countdown as a real registration, so timing of repeats reveals nothing either.
          await this.deps.codes.issue(
            { purpose: REGISTRATION_PURPOSE, subject: key, userId: owner.id },
            tx,
          );
          await this.deps.mail.enqueue(registrationAttemptLetter(config, { to: owner.email }), tx);
          return;
        }

        const now = this.deps.clock.now();
        const details = {
          email,
          emailKey: key,
          userName,
          userNameKey: userNameKey(userName),
          passwordHash,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          updatedAt: now,
        };
        // The latest registration for an unconfirmed address wins: the code confirms the
        // details it was mailed with (the letter names the username).
        const userId = owner
          ? (await tx.update(users).set(details).where(eq(users.id, owner.id)).returning())[0]!.id
          : (
              await tx
                .insert(users)
                .values({ ...details, createdAt: now })
                .returning()
            )[0]!.id;
        const issued = await this.deps.codes.issue(
          { purpose: REGISTRATION_PURPOSE, subject: key, userId },
          tx,
        );
        await this.deps.mail.enqueue(
          registrationCodeLetter(config, {
            to: email,
            firstName: details.firstName,
            userName,
            code: issued.code,
          }),
          tx,
        );
      });

    try {
      await attempt();
    } catch (error) {
      // Two registrations of one address or name at the same instant: the loser retries once
      // and then sees the winner's row (409 for the name, the countdown for the address).
      if (!isUniqueViolation(error)) throw error;
      await attempt();
    }
  }

  /** 409 when another account holds the name; a stale unconfirmed holder is removed instead. */
  private async freeUserName(tx: Executor, nameKey: string, ownerId: string | undefined) {
    const holder = await findUserByUserNameKey(tx, nameKey);
    if (!holder || holder.id === ownerId) return;
    const now = this.deps.clock.now().getTime();
    if (!holder.confirmedAt && now - holder.updatedAt.getTime() > UNCONFIRMED_HOLD_MS) {
      await tx.delete(users).where(eq(users.id, holder.id));
      return;
    }
    throw new AppError('conflict', USERNAME_TAKEN, { errors: { username: [USERNAME_TAKEN] } });
  }

  /** Confirms the address with the mailed code and signs in. */
  async verifyRegistration(
    input: { email: string; code: string },
    client: ClientInfo,
  ): Promise<{ userId: string; token: string }> {
    await enforceLimit(
      this.deps.rateLimiter,
      `verify-registration:ip:${client.ipAddress}`,
      AUTH_ADDRESS_LIMITS.verifyRegistration,
    );
    const key = emailKey(input.email);
    const result = await this.deps.codes.redeem(
      { purpose: REGISTRATION_PURPOSE, subject: key, code: input.code },
      async (_redeemed, tx) => {
        const user = await findUserByEmailKey(tx, key, { forUpdate: true });
        // A code for a confirmed address was never mailed to anyone (see register).
        if (!user || user.confirmedAt) throw codeRefusal('wrong');
        const now = this.deps.clock.now();
        await tx
          .update(users)
          .set({ confirmedAt: now, updatedAt: now })
          .where(eq(users.id, user.id));
        const { token } = await this.deps.sessions.create(
          { userId: user.id, ipAddress: client.ipAddress, userAgent: client.userAgent },
          tx,
        );
        return { userId: user.id, token };
      },
    );
    if (!result.ok) throw codeRefusal(result.reason);
    return { userId: result.value.userId, token: result.value.token };
  }

  // ------------------------------------------------------------------ login

  /**
   * One message for every failure, the same cost for unknown logins, the account lock and the
   * per-address 429, the second factor. Both limits count the attempt before any secret is
   * checked (see login-throttle.ts); an attempt that proves the password is given back.
   */
  async login(input: LoginRequest, client: ClientInfo): Promise<LoginAnswer> {
    const { rateLimiter, loginThrottle } = this.deps;
    const addressKey = `login-fail:ip:${client.ipAddress}`;
    await enforceLimit(rateLimiter, addressKey, AUTH_ADDRESS_LIMITS.login);

    const user = await findUserByLogin(this.deps.db, input.usernameOrEmail);
    const subject = user
      ? accountSubject(user.id)
      : `login:${loginKeys(input.usernameOrEmail).userNameKey}`;
    // Refused unchecked while the account waits; the address count stays.
    if (!(await loginThrottle.admit(subject)).isAdmitted) throw loginFailed();

    const isPasswordRight = await verifyPassword(
      user?.passwordHash ?? (await dummyPasswordHash()),
      input.password,
    );
    if (!user?.passwordHash || !isPasswordRight) throw loginFailed();
    const giveBack = () =>
      Promise.all([loginThrottle.refund(subject), rateLimiter.refund(addressKey)]);

    if (!user.confirmedAt) {
      await giveBack();
      await this.resendRegistrationCode(user);
      throw new AppError('forbidden', ACCOUNT_NOT_CONFIRMED);
    }

    const secondFactor = this.deps.secondFactor();
    if (await secondFactor.isEnabled(user.id)) {
      if (!input.twoFactorCode) {
        await giveBack();
        return { requiresTwoFactor: true };
      }
      // A wrong code stays counted, like a wrong password.
      if (!(await secondFactor.verifyLoginCode(user.id, input.twoFactorCode))) {
        throw new AppError('unauthorized', CODE_WRONG);
      }
    }

    await Promise.all([loginThrottle.reset(subject), rateLimiter.refund(addressKey)]);
    const { token } = await this.deps.sessions.create({
      userId: user.id,
      ipAddress: client.ipAddress,
      userAgent: client.userAgent,
      rememberMe: input.rememberMe ?? false,
    });
    return { token, userId: user.id };
  }

  /** An unconfirmed account that knows its password gets a fresh code, unless one just went. */
  private async resendRegistrationCode(user: UserRow) {
    try {
      await this.deps.db.transaction(async (tx) => {
        const issued = await this.deps.codes.issue(
          { purpose: REGISTRATION_PURPOSE, subject: user.emailKey, userId: user.id },
          tx,
        );
        await this.deps.mail.enqueue(
          registrationCodeLetter(this.deps.config, {
            to: user.email,
            firstName: user.firstName,
            userName: user.userName,
            code: issued.code,
          }),
          tx,
        );
      });
    } catch (error) {
      if (!(error instanceof CodeResendRefused)) throw error;
    }
  }

  // ------------------------------------------------------------------ the current user

  async currentUser(userId: string): Promise<User> {
    const [row] = await this.deps.db.select().from(users).where(eq(users.id, userId));
    if (!row) throw unauthorized('Недействительный токен');
    return toUserAnswer(row, await this.deps.secondFactor().isEnabled(row.id));
  }
}

/** The User of spec §3 from a row; money leaves as roubles with two decimals. */
function toUserAnswer(row: UserRow, isTwoFactorEnabled: boolean): User {
  return {
    id: row.id,
    email: row.email,
    phoneNamber: row.phone,
    userName: row.userName,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    avatarUrl: row.avatarUrl,
    isTwoFactorEnabled,
    yandexId: row.yandexId,
    telegramId: row.telegramId === null ? null : String(row.telegramId),
    balance: row.balanceKopecks / 100,
    balanceStars: row.balancePoints,
  };
}
