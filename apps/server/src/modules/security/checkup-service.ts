import {
  CHECKUP_IDLE_SESSION_DAYS,
  CHECKUP_MIN_RECOVERY_CODES,
  type CheckupAnswer,
  type CheckupItem,
} from '@portal/contracts/checkup';
import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import { notFound } from '../../http/app-error.js';
import { findUserById, type UserRow } from '../accounts/index.js';
import type { SessionStore } from '../auth/index.js';
import type { PasskeyService } from '../passkeys/index.js';
import type { TwoFactorService } from '../two-factor/index.js';

const DAY = 24 * 60 * 60_000;

/** The account's second factors as the checkup sees them. */
export interface SecondFactorFacts {
  /** Some second factor is on. */
  isOn: boolean;
  /** The authenticator app is on (its recovery codes are then counted). */
  isAuthenticatorOn: boolean;
  /** Unused recovery codes (0 while the authenticator is off). */
  recoveryCodesLeft: number;
}

/**
 * The one place the checkup learns the second factors: the authenticator, or a passkey (a
 * password sign-in then asks for it, docs/decisions/0028-passkeys.md).
 */
export async function secondFactorFacts(
  twoFactor: Pick<TwoFactorService, 'isEnabled' | 'recoveryCodesLeft'>,
  passkeys: Pick<PasskeyService, 'isEnabled'>,
  userId: string,
): Promise<SecondFactorFacts> {
  const [isAuthenticatorOn, hasPasskeys] = await Promise.all([
    twoFactor.isEnabled(userId),
    passkeys.isEnabled(userId),
  ]);
  const recoveryCodesLeft = isAuthenticatorOn ? await twoFactor.recoveryCodesLeft(userId) : 0;
  return { isOn: isAuthenticatorOn || hasPasskeys, isAuthenticatorOn, recoveryCodesLeft };
}

/** Everything the checkup's rules read. */
export interface CheckupFacts {
  user: Pick<
    UserRow,
    'confirmedAt' | 'telegramId' | 'signInAlertsByEmail' | 'passwordHash' | 'isPasswordCommon'
  >;
  secondFactor: SecondFactorFacts;
  /** The last activity of each live session. */
  sessionActivity: Date[];
  now: Date;
}

/** The checkup's rules, one line each; `recovery_codes` only while the authenticator is on. */
export function checkupOf(facts: CheckupFacts): CheckupAnswer {
  const { user, secondFactor, now } = facts;
  const idleBefore = now.getTime() - CHECKUP_IDLE_SESSION_DAYS * DAY;
  const rules: [CheckupItem, boolean][] = [
    ['email_confirmed', user.confirmedAt !== null],
    ['second_factor', secondFactor.isOn],
    ...(secondFactor.isAuthenticatorOn
      ? [
          ['recovery_codes', secondFactor.recoveryCodesLeft >= CHECKUP_MIN_RECOVERY_CODES] as [
            CheckupItem,
            boolean,
          ],
        ]
      : []),
    ['sign_in_alerts', user.telegramId !== null || user.signInAlertsByEmail],
    ['idle_sessions', facts.sessionActivity.every((at) => at.getTime() >= idleBefore)],
    // An account without a password (made through Yandex ID) has no password to be common.
    ['password_not_common', user.passwordHash === null || !user.isPasswordCommon],
  ];
  const items = rules.map(([item, isDone]) => ({ item, isDone }));
  return { items, missing: items.filter((entry) => !entry.isDone).length };
}

export interface CheckupServiceDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  twoFactor: TwoFactorService;
  passkeys: Pick<PasskeyService, 'isEnabled'>;
}

/** `GET …/Auth/checkup`: the facts of the caller's account, through the rules above. */
export class CheckupService {
  constructor(private readonly deps: CheckupServiceDeps) {}

  async checkup(userId: string): Promise<CheckupAnswer> {
    const { db, clock, sessions, twoFactor, passkeys } = this.deps;
    const user = await findUserById(db, userId);
    if (!user) throw notFound();
    const [secondFactor, live] = await Promise.all([
      secondFactorFacts(twoFactor, passkeys, userId),
      sessions.listActive(userId),
    ]);
    return checkupOf({
      user,
      secondFactor,
      sessionActivity: live.map((session) => session.lastActivityAt),
      now: clock.now(),
    });
  }
}
