/**
 * The one sign-in policy: what a sign-in still needs after its first factor, and everything that
 * goes with letting somebody in. Every way in ends here — the password (auth-service.ts), the
 * registration's confirmation, Yandex ID (modules/yandex), a passkey alone (modules/passkeys) and
 * anything added later — and no route or other module decides a second factor itself
 * (docs/decisions/0035-one-sign-in-policy.md). `src/architecture.test.ts` fails when any file
 * but this one creates a session.
 *
 * What it decides, in order:
 *
 * 1. The second step (`secondStepFor`): a passkey alone verified its user, so it is two factors
 *    and asks nothing more. Any other way asks for the authenticator's code (or a recovery code)
 *    when the authenticator is on, else for a passkey when the account has one, else nothing.
 *    Asked and not given: the answer is login's `{requiresTwoFactor: true, passkeyOptions?}`.
 * 2. The account lock around the check: counted before the secret is looked at. A password
 *    sign-in hands over the attempt its `LoginGuard` counted (the password and the second factor
 *    share it, as they always have); any other way is counted here. A wrong answer stays
 *    counted and is logged as a failed sign-in; a right one resets the count.
 * 3. In one transaction: the way in's own writes, the session (`SessionStore.create`, which
 *    refuses a blocked account; the way in and its `amr` are kept on it), the sign-in hooks (`onSignIn`: a waiting deletion is
 *    cancelled), the `sign_in` entry of the security log with its `amr`, and for a new device
 *    the alert (`onNewDeviceSignIn`). A throw anywhere rolls the sign-in back.
 */
import type { LoginTwoFactorAnswer } from '@portal/contracts/auth';
import { CODE_WRONG } from '@portal/contracts/messages';
import { PASSKEY_MESSAGES, type PasskeyAssertion } from '@portal/contracts/passkeys';
import type { Amr, SignInMethod } from '@portal/contracts/security-log';
import type { Db, Executor } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import type {
  EventClient,
  NewDeviceListener,
  SecurityLog,
  SignInEvent,
} from '../security-log/index.js';
import { type LoginAttempt, LoginRefused, loginPaused } from './login-guard.js';
import { type LoginThrottle, loginCounterKeys } from './login-throttle.js';
import type { PasskeyStep, SecondFactor } from './second-factor.js';
import type { SessionStore, SignInHook } from './sessions.js';

/** The first factor a sign-in came with. */
export type WayIn = Extract<SignInMethod, 'password' | 'registration' | 'yandex' | 'passkey'>;

/** What a sign-in still needs after its first factor. */
export type SecondStep = 'none' | 'code' | 'passkey';

/**
 * How the first factor proved the person (RFC 8176 values; `email`, a code mailed to the
 * address, is the portal's own). A passkey alone verified its user: `hwk` and `mfa`.
 */
const FIRST_FACTOR_AMR: Record<WayIn, Amr[]> = {
  password: ['pwd'],
  registration: ['pwd', 'email'],
  yandex: ['ext'],
  passkey: ['hwk', 'mfa'],
};
const SECOND_FACTOR_AMR: Record<NonNullable<SignInEvent['secondFactor']>, Amr> = {
  authenticator: 'otp',
  recovery_code: 'otp',
  passkey: 'hwk',
};

/** The rule itself, on what the account has configured. */
export function secondStepFor(
  way: WayIn,
  account: { hasAuthenticator: boolean; hasPasskey: boolean },
): SecondStep {
  // A passkey alone verified its user (a PIN, a fingerprint): two factors at once.
  if (way === 'passkey') return 'none';
  if (account.hasAuthenticator) return 'code';
  if (account.hasPasskey) return 'passkey';
  return 'none';
}

export interface SignInRequest {
  userId: string;
  way: WayIn;
  client: EventClient;
  rememberMe?: boolean | undefined;
  /** What came along for the second step, if anything. */
  secondStep?: { twoFactorCode?: string | undefined; passkey?: PasskeyAssertion | undefined };
  /**
   * The attempt a password sign-in counted in the account's lock (`LoginGuard`); the policy
   * settles it. Other ways in have none: the policy counts their second step itself.
   */
  attempt?: LoginAttempt;
  /** The way in's own writes, in the sign-in's transaction, before the session; a throw refuses. */
  inTransaction?: (executor: Executor) => Promise<void>;
}

export type SignInResult =
  | { status: 'signed_in'; userId: string; token: string; amr: Amr[] }
  | { status: 'second_step'; answer: LoginTwoFactorAnswer };

export interface SignInPolicyDeps {
  db: Db;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  /** The two-factor module's authenticator (modules/two-factor). */
  secondFactor: SecondFactor;
  securityLog: SecurityLog;
}

export class SignInPolicy {
  private passkeyStep: PasskeyStep | undefined;
  private readonly signInHooks: SignInHook[] = [];
  private readonly newDeviceListeners: NewDeviceListener[] = [];

  constructor(private readonly deps: SignInPolicyDeps) {}

  /** The passkeys module offers its passkeys as the second step (auth/second-factor.ts). */
  usePasskeyStep(step: PasskeyStep): void {
    this.passkeyStep = step;
  }

  /**
   * Runs `hook` in every sign-in's transaction, after its session was created (a throw refuses
   * the sign-in): modules/account-data cancels a waiting deletion there.
   */
  onSignIn(hook: SignInHook): void {
    this.signInHooks.push(hook);
  }

  /**
   * Tells `listener` of every sign-in from a new device, in the sign-in's transaction (the
   * security module mails the alert from it, so a rolled-back sign-in mails nothing).
   */
  onNewDeviceSignIn(listener: NewDeviceListener): void {
    this.newDeviceListeners.push(listener);
  }

  /** What a sign-in of this account by this way would still need. */
  async secondStepOf(userId: string, way: WayIn, executor?: Executor): Promise<SecondStep> {
    if (way === 'passkey') return secondStepFor(way, { hasAuthenticator: false, hasPasskey: true });
    const hasAuthenticator = await this.deps.secondFactor.isEnabled(userId, executor);
    const hasPasskey =
      !hasAuthenticator && this.passkeyStep
        ? await this.passkeyStep.isEnabled(userId, executor)
        : false;
    return secondStepFor(way, { hasAuthenticator, hasPasskey });
  }

  /**
   * Lets the person in once the first factor was right: asks the second step, checks it under
   * the account's lock, then creates the session (see the top of this file). With `executor`,
   * inside the caller's transaction (a way in that cannot ask a second step: the registration).
   * Refusals are thrown as `LoginRefused`: `wrong_second_factor` (401), `account_waiting` (429).
   */
  async signIn(request: SignInRequest, executor?: Executor): Promise<SignInResult> {
    const { userId, way, attempt } = request;
    const step = await this.secondStepOf(userId, way, executor);
    const given = request.secondStep ?? {};
    let secondFactor: SignInEvent['secondFactor'];

    if (step === 'code' || step === 'passkey') {
      if (executor)
        throw new Error(`a ${way} sign-in inside a transaction cannot ask a second step`);
      const isGiven = step === 'code' ? Boolean(given.twoFactorCode) : Boolean(given.passkey);
      if (!isGiven) {
        await attempt?.refund();
        return {
          status: 'second_step',
          answer:
            step === 'passkey'
              ? {
                  requiresTwoFactor: true,
                  passkeyOptions: await this.passkeyStep!.secondStepOptions(userId),
                }
              : { requiresTwoFactor: true },
        };
      }
      secondFactor = await this.checkSecondStep(request, step);
    }

    await attempt?.succeed();
    const amr = [
      ...FIRST_FACTOR_AMR[way],
      ...(secondFactor ? [SECOND_FACTOR_AMR[secondFactor]] : []),
    ];
    const run = (tx: Executor) => this.createSession(request, { secondFactor, amr }, tx);
    const token = executor ? await run(executor) : await this.deps.db.transaction(run);
    return { status: 'signed_in', userId, token, amr };
  }

  /**
   * A session handed to a sibling site from a portal session (modules/auth/hand-off.ts): not a
   * sign-in of its own (the portal session passed this policy), so no second step and no hooks;
   * a blocked account is still refused by `SessionStore.create`.
   */
  async handOver(
    input: { userId: string; clientOrigin: string; userAgent?: string; ipAddress?: string },
    executor: Executor,
  ) {
    return this.deps.sessions.create(input, executor);
  }

  /** The second step, counted in the account's lock before it is checked. */
  private async checkSecondStep(
    request: SignInRequest,
    step: 'code' | 'passkey',
  ): Promise<NonNullable<SignInEvent['secondFactor']>> {
    const { userId, client, attempt } = request;
    const { twoFactorCode, passkey } = request.secondStep ?? {};
    const subject = loginCounterKeys.account(userId);
    // The password's attempt covers its second factor; any other way is counted here.
    if (!attempt) {
      const admission = await this.deps.loginThrottle.admit(subject);
      if (!admission.isAdmitted) {
        // The same words as the password's form: sign-in for this login waits N minutes.
        throw new LoginRefused('account_waiting', loginPaused(admission.waitMs));
      }
    }
    const isRight =
      step === 'code'
        ? await this.deps.secondFactor.verifyLoginCode(userId, twoFactorCode!, client)
        : await this.passkeyStep!.verifySecondStep(userId, passkey!);
    if (!isRight) {
      // Stays counted, like a wrong password.
      await this.deps.securityLog.recordFailedSignIn(userId, client);
      const message = step === 'code' ? CODE_WRONG : PASSKEY_MESSAGES.secondFactorWrong;
      throw new LoginRefused('wrong_second_factor', new AppError('unauthorized', message));
    }
    if (!attempt) await this.deps.loginThrottle.reset(subject);
    if (step === 'passkey') return 'passkey';
    // Six digits are the authenticator's; anything else it accepted was a recovery code.
    return /^\d{6}$/.test(twoFactorCode!.trim()) ? 'authenticator' : 'recovery_code';
  }

  private async createSession(
    request: SignInRequest,
    proof: { secondFactor: SignInEvent['secondFactor']; amr: Amr[] },
    tx: Executor,
  ): Promise<string> {
    const { userId, way, client } = request;
    await request.inTransaction?.(tx);
    const { token } = await this.deps.sessions.create(
      {
        userId,
        ipAddress: client.ipAddress,
        userAgent: client.userAgent,
        rememberMe: request.rememberMe ?? false,
        // Kept on the session: a site's sign-in through the OpenID provider names it
        // (modules/oidc/interactions.ts), and two sign-ins of one browser at the same instant
        // cannot tell their log entries apart.
        signIn: { method: way, amr: proof.amr },
      },
      tx,
    );
    const signIn = {
      userId,
      userAgent: client.userAgent.slice(0, 512),
      ipAddress: client.ipAddress,
    };
    for (const hook of this.signInHooks) await hook(signIn, tx);
    const event = await this.deps.securityLog.recordSignIn(
      tx,
      userId,
      {
        method: way,
        amr: proof.amr,
        ...(proof.secondFactor ? { secondFactor: proof.secondFactor } : {}),
      },
      client,
    );
    if (event.isNewDevice) {
      for (const listener of this.newDeviceListeners) {
        await listener(tx, {
          userId,
          eventId: event.eventId,
          occurredAt: event.occurredAt,
          client,
        });
      }
    }
    return token;
  }
}
