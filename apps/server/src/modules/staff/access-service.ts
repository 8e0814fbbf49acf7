/**
 * Support's actions on an account's access: unlock, end sessions, block, unblock, reset the
 * second factors. The one place of their rules: the command line (modules/operator,
 * access-commands.ts) and the staff's calls (routes.ts) both call this service, with a
 * `StaffActor` that says who acts and why. Each action is one transaction with its record in
 * `operator_actions` and, where the customer should know, its line in the account's security
 * log (which says that support acted, never who).
 */
import type { Clock } from '../../adapters/clock.js';
import type { Mailer } from '../../adapters/mail.js';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { AppError } from '../../http/app-error.js';
import { lockUserBalances, setUserBlocked, type UserRow } from '../accounts/index.js';
import {
  codeRefusal,
  issueMailedCode,
  type LoginThrottle,
  loginCounterKeys,
  type OneTimeCodes,
  type SessionStore,
} from '../auth/index.js';
import { actedBy, recordOperatorAction, type StaffActor, when } from '../operator/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import { NO_CLIENT, type SecurityLog } from '../security-log/index.js';
import type { TwoFactorService } from '../two-factor/index.js';
import { factorResetCodeLetter } from './letters.js';

/** The code the customer reads out before a reset of the second factors. */
const FACTOR_RESET_PURPOSE = 'support_factor_reset';

/** An action refused, nothing changed: 409 on the pages, exit code 1 on the command line. */
export class SupportRefusal extends AppError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export interface SupportAccessDeps {
  config: Config;
  db: Db;
  clock: Clock;
  codes: OneTimeCodes;
  mail: Mailer;
  sessions: SessionStore;
  loginThrottle: LoginThrottle;
  securityLog: SecurityLog;
  twoFactor: TwoFactorService;
  passkeys: PasskeyService;
}

export class SupportAccessService {
  constructor(private readonly deps: SupportAccessDeps) {}

  /**
   * Ends the wait after wrong passwords or codes: the account's counter goes. The per-address
   * limit is not the account's and stays. Answers until when it waited (null: it did not).
   */
  async unlock(actor: StaffActor, user: UserRow): Promise<{ lockedUntil: Date | null }> {
    const { db, clock, loginThrottle, securityLog } = this.deps;
    const subject = loginCounterKeys.account(user.id);
    const before = await loginThrottle.state(subject);
    const now = clock.now();
    const lockedUntil = before?.lockedUntil && before.lockedUntil > now ? before.lockedUntil : null;
    await db.transaction(async (tx) => {
      if (lockedUntil)
        await securityLog.record(tx, user.id, 'sign_in_unlocked_by_support', NO_CLIENT);
      await this.record(tx, actor, 'unlock', user.id, {
        failures: before?.failures ?? 0,
        lockedUntil: before?.lockedUntil?.toISOString() ?? null,
      });
    });
    await loginThrottle.reset(subject);
    return { lockedUntil };
  }

  /** Every session ends, on every process (`SessionStore.revokeAll`); answers how many. */
  async endSessions(actor: StaffActor, user: UserRow): Promise<number> {
    const { db, sessions, securityLog } = this.deps;
    return db.transaction(async (tx) => {
      // The account's row first, as a block takes it: a block and an end of sessions running
      // together then queue on the row, instead of each holding what the other waits for (the
      // sessions' rows here, the row's lock there, which the log's foreign key needs).
      await lockUserBalances(tx, user.id);
      const count = await sessions.revokeAll(user.id, {}, tx);
      await securityLog.record(tx, user.id, 'sessions_ended_by_support', NO_CLIENT);
      await this.record(tx, actor, 'end-sessions', user.id, { sessionsEnded: count });
      return count;
    });
  }

  /**
   * No way in (auth/sessions.ts `create` refuses a blocked account) and every session ended, in
   * one transaction; the reason is support's, never shown to the customer. Answers the sessions
   * ended.
   */
  async block(actor: StaffActor, user: UserRow): Promise<number> {
    if (user.blockedAt) {
      throw new SupportRefusal(
        `Аккаунт уже заблокирован с ${when(user.blockedAt)}: ${user.blockedReason ?? ''}`,
      );
    }
    const { db, sessions, securityLog } = this.deps;
    return db.transaction(async (tx) => {
      // The row first: a sign-in running now waits for this transaction and then sees the block
      // (auth/sessions.ts `create`); a session it created before is ended just below. Of blocks
      // racing, one changes the row; the others find it blocked and change nothing.
      if (
        !(await setUserBlocked(tx, user.id, { reason: actor.reason ?? '' }, this.deps.clock.now()))
      ) {
        throw new SupportRefusal(`Аккаунт ${user.userName} уже заблокирован`);
      }
      const count = await sessions.revokeAll(user.id, {}, tx);
      await securityLog.record(tx, user.id, 'blocked', NO_CLIENT);
      await this.record(tx, actor, 'block', user.id, { sessionsEnded: count });
      return count;
    });
  }

  /** The account may sign in again; the sessions ended by the block do not come back. */
  async unblock(actor: StaffActor, user: UserRow): Promise<void> {
    if (!user.blockedAt) throw new SupportRefusal(`Аккаунт ${user.userName} не заблокирован`);
    const { db, securityLog } = this.deps;
    await db.transaction(async (tx) => {
      if (!(await setUserBlocked(tx, user.id, null, this.deps.clock.now()))) {
        throw new SupportRefusal(`Аккаунт ${user.userName} не заблокирован`);
      }
      await securityLog.record(tx, user.id, 'unblocked', NO_CLIENT);
      await this.record(tx, actor, 'unblock', user.id, {
        blockedAt: user.blockedAt?.toISOString(),
        blockedReason: user.blockedReason,
      });
    });
  }

  /**
   * The way back for an owner who lost the authenticator (and its recovery codes) and every
   * passkey: all of them go, each logged, then they sign in by password. Refused when there is
   * nothing to reset. The command line trusts its operator to have checked who asks; the pages
   * call `resetSecondFactorsByCode`.
   */
  async resetSecondFactors(
    actor: StaffActor,
    user: UserRow,
    executor?: Executor,
  ): Promise<{ wasAuthenticatorOn: boolean; passkeysRemoved: number }> {
    const { db, twoFactor, passkeys, securityLog } = this.deps;
    if (!executor) return db.transaction((tx) => this.resetSecondFactors(actor, user, tx));
    const result = {
      wasAuthenticatorOn: await twoFactor.disableBySupport(executor, user.id, NO_CLIENT),
      passkeysRemoved: await passkeys.removeAllBySupport(executor, user.id, NO_CLIENT),
    };
    if (!result.wasAuthenticatorOn && result.passkeysRemoved === 0) {
      throw new SupportRefusal(`У аккаунта ${user.userName} нет второго шага входа: менять нечего`);
    }
    await securityLog.record(executor, user.id, 'second_factors_reset_by_support', NO_CLIENT);
    await this.record(executor, actor, 'reset-second-factors', user.id, result);
    return result;
  }

  /**
   * Mails the customer the code they read out to support (the pages' proof of who asks, before
   * `resetSecondFactorsByCode`). Its resend countdown and hourly cap are the codes' own.
   */
  async mailFactorResetCode(actor: StaffActor, user: UserRow): Promise<void> {
    const { db, config } = this.deps;
    await db.transaction(async (tx) => {
      await issueMailedCode(
        this.deps,
        { purpose: FACTOR_RESET_PURPOSE, subject: user.id, userId: user.id },
        ({ code, expiresAt }) =>
          factorResetCodeLetter(config, {
            to: user.email,
            firstName: user.firstName,
            code,
            expiresAt,
          }),
        tx,
      );
      await this.record(tx, actor, 'factor_reset_code_sent', user.id, {});
    });
  }

  /** The reset, once the customer's mailed code is right; the code is spent with the reset. */
  async resetSecondFactorsByCode(actor: StaffActor, user: UserRow, code: string) {
    const result = await this.deps.codes.redeem(
      { purpose: FACTOR_RESET_PURPOSE, subject: user.id, code },
      (_redeemed, tx) => this.resetSecondFactors(actor, user, tx),
    );
    if (!result.ok) throw codeRefusal(result.reason, 'code');
    return result.value;
  }

  private record(
    executor: Executor,
    actor: StaffActor,
    kind: string,
    accountId: string,
    details: Record<string, unknown>,
  ) {
    return recordOperatorAction(executor, {
      ...actedBy(actor),
      command: kind,
      accountId,
      details,
      at: this.deps.clock.now(),
    });
  }
}
