/**
 * Registration, confirmation, login and the current user. Routes stay thin; every
 * rule lives here. Writes of one call are one transaction, letters included.
 */
import { randomBytes } from 'node:crypto';
import type {
  LoginAnswer,
  LoginRequest,
  PendingConfirmation,
  RegisterRequest,
  User,
} from '@portal/contracts/auth';
import { ACCOUNT_NOT_CONFIRMED, TOKEN_INVALID, USERNAME_TAKEN } from '@portal/contracts/messages';
import type { Clock } from '../../adapters/clock.js';
import type { Mailer } from '../../adapters/mail.js';
import { enforceLimit, type RateLimiter } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError, unauthorized } from '../../http/app-error.js';
import {
  deleteUser,
  emailKey,
  findUserByEmailKey,
  findUserById,
  findUserByLogin,
  findUserByUserNameKey,
  insertUser,
  normalizeUserName,
  type UserRow,
  updateUser,
  userNameKey,
} from '../accounts/index.js';
import type { SecurityLog } from '../security-log/index.js';
import { registrationAttemptLetter, registrationCodeLetter } from './letters.js';
import { LoginGuard, type LoginOutcome, LoginRefused, loginFailed } from './login-guard.js';
import type { LoginThrottle } from './login-throttle.js';
import { issueMailedCode } from './mailed-codes.js';
import { CodeResendRefused, codeRefusal, type OneTimeCodes } from './one-time-codes.js';
import { assertPasswordAllowed, isCommonPassword } from './password-policy.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { SecondFactor } from './second-factor.js';
import type { AuthenticatedSession, SessionStore } from './sessions.js';
import { siteName } from './siblings.js';
import type { SignInPolicy } from './sign-in-policy.js';

const REGISTRATION_PURPOSE = 'registration';

const MINUTE = 60_000;

/**
 * Per source address limits: every call that sends mail or checks a secret has one (login's is
 * `LOGIN_THROTTLE_RULES.perAddress`, counted by its `LoginGuard`).
 */
const AUTH_ADDRESS_LIMITS = {
  register: { limit: 20, windowMs: 60 * MINUTE },
  verifyRegistration: { limit: 30, windowMs: 15 * MINUTE },
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

export interface AuthServiceDeps {
  config: Config;
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  codes: OneTimeCodes;
  mail: Mailer;
  rateLimiter: RateLimiter;
  loginThrottle: LoginThrottle;
  /** The two-factor module's authenticator, built before this service (modules/two-factor). */
  secondFactor: SecondFactor;
  securityLog: SecurityLog;
  /** What a sign-in needs after the password, and the session (sign-in-policy.ts). */
  signInPolicy: SignInPolicy;
}

/**
 * Outcomes of a sign-in by password that the account's security log counts as failed here (a
 * wrong second factor is counted by the sign-in policy, for every way in).
 */
const FAILED_SIGN_IN_OUTCOMES = new Set<LoginOutcome>(['wrong_password', 'account_waiting']);

export class AuthService {
  private readonly outcomeListeners: ((outcome: LoginOutcome) => void)[] = [];
  private readonly loginGuard: LoginGuard;

  constructor(private readonly deps: AuthServiceDeps) {
    this.loginGuard = new LoginGuard(deps);
    void dummyPasswordHash();
  }

  /** Tells `listener` how each sign-in ended (the metrics count them). */
  onLoginOutcome(listener: (outcome: LoginOutcome) => void): void {
    this.outcomeListeners.push(listener);
  }

  private report(outcome: LoginOutcome) {
    for (const listener of this.outcomeListeners) listener(outcome);
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
          // Same countdown as a real registration, so timing of repeats reveals nothing either;
          // the letter tells the owner, and carries no code.
          await issueMailedCode(
            this.deps,
            { purpose: REGISTRATION_PURPOSE, subject: key, userId: owner.id },
            () => registrationAttemptLetter(config, { to: owner.email }),
            tx,
          );
          return;
        }

        const now = this.deps.clock.now();
        const details = {
          email,
          emailKey: key,
          userName,
          userNameKey: userNameKey(userName),
          passwordHash,
          isPasswordCommon: isCommonPassword(input.password),
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          updatedAt: now,
        };
        // The latest registration for an unconfirmed address wins: the code confirms the
        // details it was mailed with (the letter names the username).
        const userId = owner
          ? (await updateUser(tx, owner.id, details))!.id
          : (await insertUser(tx, { ...details, createdAt: now })).id;
        await issueMailedCode(
          this.deps,
          { purpose: REGISTRATION_PURPOSE, subject: key, userId },
          (issued) =>
            registrationCodeLetter(config, {
              to: email,
              firstName: details.firstName,
              userName,
              code: issued.code,
              expiresAt: issued.expiresAt,
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
      await deleteUser(tx, holder.id);
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
        await updateUser(tx, user.id, { confirmedAt: now, updatedAt: now });
        // In the confirmation's transaction: a new account has no second factor to ask.
        const signedIn = await this.deps.signInPolicy.signIn(
          { userId: user.id, way: 'registration', client },
          tx,
        );
        if (signedIn.status !== 'signed_in') throw new Error('a new account asked a second step');
        return { userId: user.id, token: signedIn.token };
      },
    );
    if (!result.ok) throw codeRefusal(result.reason);
    return { userId: result.value.userId, token: result.value.token };
  }

  // ------------------------------------------------------------------ login

  /**
   * One message for every failure, the same cost for unknown logins, the account lock and the
   * per-address 429 (`LoginGuard`: both count the attempt before any secret is checked), the
   * second factor. Every refusal is thrown as `LoginRefused`, which names its outcome.
   */
  async login(input: LoginRequest, client: ClientInfo): Promise<LoginAnswer> {
    // The account the login names, once looked up: its security log counts the failures.
    const named: { user?: UserRow } = {};
    try {
      const answer = await this.signIn(input, client, named);
      this.report('requiresTwoFactor' in answer ? 'second_factor_asked' : 'success');
      return answer;
    } catch (error) {
      if (error instanceof LoginRefused) {
        this.report(error.outcome);
        if (named.user && FAILED_SIGN_IN_OUTCOMES.has(error.outcome)) {
          await this.deps.securityLog.recordFailedSignIn(named.user.id, client);
        }
      }
      throw error;
    }
  }

  private async signIn(
    input: LoginRequest,
    client: ClientInfo,
    named: { user?: UserRow },
  ): Promise<LoginAnswer> {
    const { user, attempt } = await this.loginGuard.admit(
      client.ipAddress,
      input.usernameOrEmail,
      async () => {
        const found = await findUserByLogin(this.deps.db, input.usernameOrEmail);
        if (found) named.user = found;
        return found;
      },
    );

    const isPasswordRight = await verifyPassword(
      user?.passwordHash ?? (await dummyPasswordHash()),
      input.password,
    );
    if (!user?.passwordHash || !isPasswordRight) {
      throw new LoginRefused('wrong_password', loginFailed());
    }

    if (!user.confirmedAt) {
      await attempt.refund();
      const resendAfterSeconds = await this.resendRegistrationCode(user);
      // The password was right: the address is the caller's own, and the code step needs it
      // (the code is bound to the address, whatever login was typed).
      const confirmation: PendingConfirmation = { email: user.email, resendAfterSeconds };
      throw new LoginRefused(
        'not_confirmed',
        new AppError('forbidden', ACCOUNT_NOT_CONFIRMED, { fields: { confirmation } }),
      );
    }

    // What the password still needs (the authenticator's code, a passkey), the account lock
    // around it, and the session: the one sign-in policy, as for every way in.
    const result = await this.deps.signInPolicy.signIn({
      userId: user.id,
      way: 'password',
      client,
      rememberMe: input.rememberMe,
      secondStep: { twoFactorCode: input.twoFactorCode, passkey: input.passkey },
      attempt,
      // The checkup's flag, for a password set before the list (or the list) changed; written
      // only when it differs, so a sign-in does not touch the account's row.
      inTransaction: async (tx) => {
        const isPasswordCommon = isCommonPassword(input.password);
        if (user.isPasswordCommon !== isPasswordCommon) {
          await updateUser(tx, user.id, { isPasswordCommon, updatedAt: this.deps.clock.now() });
        }
      },
    });
    if (result.status === 'second_step') return result.answer;
    return { token: result.token, userId: user.id };
  }

  /**
   * An unconfirmed account that knows its password gets a fresh code, unless one just went.
   * Answers the seconds until another may be asked for.
   */
  private async resendRegistrationCode(user: UserRow): Promise<number> {
    try {
      return await this.deps.db.transaction(async (tx) => {
        const issued = await issueMailedCode(
          this.deps,
          { purpose: REGISTRATION_PURPOSE, subject: user.emailKey, userId: user.id },
          ({ code, expiresAt }) =>
            registrationCodeLetter(this.deps.config, {
              to: user.email,
              firstName: user.firstName,
              userName: user.userName,
              code,
              expiresAt,
            }),
          tx,
        );
        return issued.resendAfterSeconds;
      });
    } catch (error) {
      if (!(error instanceof CodeResendRefused)) throw error;
      return error.secondsLeft;
    }
  }

  // ------------------------------------------------------------------ sign-out

  /** Ends the caller's own session; a sibling site's session is logged with its site's name. */
  async signOut(session: AuthenticatedSession, client: ClientInfo): Promise<void> {
    const { db, sessions, securityLog, config } = this.deps;
    await db.transaction(async (tx) => {
      if (!(await sessions.revoke(session.userId, session.id, tx))) return;
      await securityLog.record(
        tx,
        session.userId,
        'sign_out',
        client,
        session.siblingOrigin ? { site: siteName(config, session.siblingOrigin) } : {},
      );
    });
  }

  // ------------------------------------------------------------------ the current user

  async currentUser(userId: string): Promise<User> {
    const row = await findUserById(this.deps.db, userId);
    if (!row) throw unauthorized(TOKEN_INVALID);
    return toUserAnswer(row, await this.deps.secondFactor.isEnabled(row.id));
  }
}

/** The user's answer from a row; money leaves as roubles with two decimals. */
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
    signInAlertsByEmail: row.signInAlertsByEmail,
    hasPassword: row.passwordHash !== null,
  };
}
