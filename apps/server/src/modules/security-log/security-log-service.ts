import type {
  Amr,
  SecurityEventDetails,
  SecurityEventKind,
  SecurityLogAnswer,
  SignInMethod,
} from '@portal/contracts/security-log';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import {
  countDailySecurityEvent,
  hasAnySignIn,
  hasSignedInWith,
  insertSecurityEvent,
  listSecurityEvents,
} from './repository.js';
import type { EventClient } from './request-client.js';

/** A sign-in as the log records it. */
export interface SignInEvent {
  method: SignInMethod;
  secondFactor?: SecurityEventDetails['secondFactor'];
  /** How the person proved themselves (modules/auth/sign-in-policy.ts). */
  amr?: Amr[];
}

/**
 * A sign-in from a browser the account has not used before, told inside its transaction by the
 * sign-in policy (modules/auth/sign-in-policy.ts, `onNewDeviceSignIn`).
 */
export interface NewDeviceSignIn {
  userId: string;
  /** The `sign_in` event's id. */
  eventId: string;
  occurredAt: Date;
  client: EventClient;
}
export type NewDeviceListener = (executor: Executor, signIn: NewDeviceSignIn) => Promise<void>;

export interface SecurityLogDeps {
  db: Db;
  clock: Clock;
}

/**
 * The account's security log. Other modules record through `app.deps.securityLog`, passing their
 * transaction where the change has one, so a change that rolls back logs nothing, and the browser
 * the change came from (`clientOf(request)` in its route; `NO_CLIENT` for the Telegram bot).
 */
export class SecurityLog {
  constructor(private readonly deps: SecurityLogDeps) {}

  /** Records one event of `kind` for the account; answers its id. */
  async record(
    executor: Executor,
    userId: string,
    kind: SecurityEventKind,
    client: EventClient,
    details: SecurityEventDetails = {},
    occurredAt: Date = this.deps.clock.now(),
  ): Promise<string> {
    return insertSecurityEvent(executor, {
      userId,
      kind,
      details,
      occurredAt,
      userAgent: client.userAgent.slice(0, 512),
      ipAddress: client.ipAddress,
    });
  }

  /**
   * Records a sign-in, marked as a new device when the account has signed in before but never
   * from this user agent. Only the sign-in policy calls it (modules/auth/sign-in-policy.ts).
   */
  async recordSignIn(
    executor: Executor,
    userId: string,
    signIn: SignInEvent,
    client: EventClient,
  ): Promise<{ eventId: string; occurredAt: Date; isNewDevice: boolean }> {
    const userAgent = client.userAgent.slice(0, 512);
    const isNewDevice =
      !(await hasSignedInWith(executor, userId, userAgent)) &&
      (await hasAnySignIn(executor, userId));
    const details: SecurityEventDetails = { method: signIn.method };
    if (signIn.secondFactor) details.secondFactor = signIn.secondFactor;
    if (signIn.amr) details.amr = signIn.amr;
    if (isNewDevice) details.isNewDevice = true;
    const occurredAt = this.deps.clock.now();
    const eventId = await this.record(executor, userId, 'sign_in', client, details, occurredAt);
    return { eventId, occurredAt, isNewDevice };
  }

  /** Counts a failed sign-in in the account's row of the day (one atomic upsert). */
  async recordFailedSignIn(userId: string, client: EventClient): Promise<void> {
    await countDailySecurityEvent(this.deps.db, {
      userId,
      kind: 'sign_in_failed',
      details: {},
      occurredAt: this.deps.clock.now(),
      userAgent: client.userAgent.slice(0, 512),
      ipAddress: client.ipAddress,
    });
  }

  /** A page of the account's log, newest first. */
  page(
    userId: string,
    query: { limit: number; cursor?: string | undefined },
  ): Promise<SecurityLogAnswer> {
    return listSecurityEvents(this.deps.db, { userId, ...query });
  }
}
