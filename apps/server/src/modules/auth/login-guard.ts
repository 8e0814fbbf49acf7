/**
 * The one guard of a sign-in by password. Both limits count an attempt before any secret is
 * looked at (see docs/security.md, "Limits hold under parallel requests"):
 *
 * - its address, in the rate limiter: 429 with Retry-After past `perAddress` failed sign-ins;
 * - its account, in the database (`LoginThrottle`): while the account waits, the attempt is
 *   refused unchecked and not counted, with 429 `login_paused`, Retry-After and the minutes left
 *   (`loginPaused`). A login no account has waits and is answered exactly alike.
 *
 * After the check the caller settles the attempt: `refund` when the password was right but
 * nobody is signed in yet (the second factor is still to come, the address is unconfirmed),
 * `succeed` when somebody is; a wrong secret simply stays counted.
 *
 * The keys of both halves come from `loginCounterKeys` (login-throttle.ts) only.
 */
import { loginPausedMessage } from '@portal/contracts/login-paused';
import { LOGIN_FAILED } from '@portal/contracts/messages';
import { enforceLimit, type RateLimiter, tooManyRequests } from '../../adapters/rate-limit.js';
import { AppError } from '../../http/app-error.js';
import { LOGIN_THROTTLE_RULES, type LoginThrottle, loginCounterKeys } from './login-throttle.js';

/** How a sign-in by password ended; the client sees several of them as the same answer. */
export const LOGIN_OUTCOMES = [
  'success',
  'second_factor_asked',
  'wrong_password',
  'wrong_second_factor',
  'account_waiting',
  'address_limited',
  'not_confirmed',
] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/** A refused sign-in: the answer of `error`, and the outcome the metrics count. */
export class LoginRefused extends AppError {
  constructor(
    readonly outcome: LoginOutcome,
    error: AppError,
  ) {
    super(error.code, error.message, error.details);
  }
}

export const loginFailed = () => new AppError('unauthorized', LOGIN_FAILED);

/** The login waits `waitMs` more: 429 with Retry-After, the minutes rounded up in the message. */
export function loginPaused(waitMs: number): AppError {
  const { details } = tooManyRequests(waitMs);
  return new AppError('too_many_requests', loginPausedMessage(details.retryAfter ?? 1), {
    ...details,
    reason: 'login_paused',
  });
}

/** An admitted attempt, counted in both halves until it is settled. */
export interface LoginAttempt {
  /** The password was right, but nobody is signed in yet: the attempt is given back. */
  refund(): Promise<void>;
  /** Somebody is signed in: the account's count starts over, the address's attempt goes back. */
  succeed(): Promise<void>;
}

export interface LoginGuardDeps {
  /** The account's half: its failures and lock. */
  loginThrottle: LoginThrottle;
  /** The address's half. */
  rateLimiter: RateLimiter;
}

export class LoginGuard {
  constructor(private readonly deps: LoginGuardDeps) {}

  /**
   * Counts one sign-in attempt from `ipAddress` for the account `findUser` names, before any
   * secret is checked. The address comes first, so a refused address does not even look the
   * account up. Throws `LoginRefused`: 429 past the address limit, 429 `login_paused` while the
   * account (or the unknown login) waits.
   */
  async admit<U extends { id: string }>(
    ipAddress: string,
    usernameOrEmail: string,
    findUser: () => Promise<U | undefined>,
  ): Promise<{ user: U | undefined; attempt: LoginAttempt }> {
    const addressKey = loginCounterKeys.address(ipAddress);
    const addressRule = LOGIN_THROTTLE_RULES.perAddress;
    try {
      await enforceLimit(this.deps.rateLimiter, addressKey, addressRule);
    } catch (error) {
      if (error instanceof AppError) throw new LoginRefused('address_limited', error);
      throw error;
    }

    const user = await findUser();
    const accountKey = user
      ? loginCounterKeys.account(user.id)
      : loginCounterKeys.unknownLogin(usernameOrEmail);
    // Refused unchecked while the account waits; the address count stays.
    const admission = await this.deps.loginThrottle.admit(accountKey);
    if (!admission.isAdmitted) {
      throw new LoginRefused('account_waiting', loginPaused(admission.waitMs));
    }

    const attempt: LoginAttempt = {
      refund: async () => {
        await Promise.all([
          this.deps.loginThrottle.refund(accountKey),
          this.deps.rateLimiter.refund(addressKey, addressRule),
        ]);
      },
      succeed: async () => {
        await Promise.all([
          this.deps.loginThrottle.reset(accountKey),
          this.deps.rateLimiter.refund(addressKey, addressRule),
        ]);
      },
    };
    return { user, attempt };
  }
}
