import { ACCOUNT_DELETION_DAYS } from '@portal/contracts/account-data';
import type { Executor } from '../../db/database.js';
import type { AppDeps } from '../../deps.js';
import { AppError, notFound, unauthorized } from '../../http/app-error.js';
import { findUserById, isUserErased, readBalances } from '../accounts/index.js';
import { generateToken, hashToken } from '../auth/index.js';
import { hasTopUpInProgress, lockBalances } from '../payments/index.js';
import type { EventClient } from '../security-log/index.js';
import { hasActivePaidService } from '../servers/index.js';
import { deletionCancelledLetter, deletionScheduledLetter } from './letters.js';
import { ACCOUNT_DATA_MESSAGES } from './messages.js';
import {
  cancelWaitingDeletion,
  deleteCancelledDeletion,
  findDeletion,
  insertDeletion,
} from './repository.js';
import type { DeletionCancelledBy } from './schema.js';

const DAY_MS = 24 * 60 * 60_000;

export type DeletionDeps = Pick<
  AppDeps,
  'config' | 'db' | 'clock' | 'mail' | 'sessions' | 'securityLog'
>;

/**
 * «Удалить аккаунт»: scheduled for ACCOUNT_DELETION_DAYS, cancelled by the letter's link or any
 * sign-in, erased afterwards by the housekeeping job (erasure.ts).
 */
export class DeletionService {
  constructor(private readonly deps: DeletionDeps) {}

  /**
   * Refuses, before any proof is asked, a deletion that would be refused anyway (roubles left, a
   * paid service, a top-up under way): the owner learns why first, not after proving who they are.
   * `schedule` checks again under the balance lock.
   */
  async assertDeletable(userId: string): Promise<void> {
    const { db, clock } = this.deps;
    const balances = await readBalances(db, userId);
    if (!balances) throw notFound();
    const refusal = await refusalOf(db, userId, balances.kopecks, clock.now());
    if (refusal) throw conflict(refusal);
  }

  /**
   * Schedules the deletion, after the route checked a fresh proof. Refused while roubles remain,
   * a paid service runs or a top-up is under way: each would be lost with the account. Every
   * session ends, the one that asked included, so that "signing in cancels" holds for all of them.
   */
  async schedule(userId: string, client: EventClient): Promise<Date> {
    const { db, clock, mail, config, sessions, securityLog } = this.deps;
    const now = clock.now();
    const dueAt = new Date(now.getTime() + ACCOUNT_DELETION_DAYS * DAY_MS);
    const token = generateToken();
    await db.transaction(async (tx) => {
      // The balance under the user's row lock: a charge or a credit waits for this decision.
      const balances = await lockBalances(tx, userId);
      const user = await findUserById(tx, userId);
      if (!balances || !user) throw notFound();
      const refusal = await refusalOf(tx, userId, balances.kopecks, now);
      if (refusal) throw conflict(refusal);
      const isNew = await insertDeletion(tx, {
        userId,
        requestedAt: now,
        dueAt,
        tokenHash: hashToken(token),
      });
      if (!isNew) throw conflict(ACCOUNT_DATA_MESSAGES.alreadyScheduled);
      await mail.enqueue(
        deletionScheduledLetter(config, {
          to: user.email,
          firstName: user.firstName,
          dueAt,
          token,
        }),
        tx,
      );
      await securityLog.record(tx, userId, 'deletion_scheduled', client);
      await sessions.revokeAll(userId, {}, tx);
    });
    return dueAt;
  }

  /** The letter's link, posted from the page it opens (a GET never cancels). */
  async cancelByToken(token: string, client: EventClient): Promise<void> {
    const { db } = this.deps;
    const cancelled = await db.transaction((tx) =>
      this.cancel(tx, { tokenHash: hashToken(token) }, 'letter', client),
    );
    if (!cancelled) throw notFound(ACCOUNT_DATA_MESSAGES.cancelLinkInvalid);
  }

  /**
   * Every portal sign-in, in its transaction (SignInPolicy.onSignIn): cancels a waiting deletion.
   * An account erased meanwhile (its password checked just before the erasure committed) cannot
   * be signed into: the sign-in is refused and rolls back.
   */
  async onSignIn(
    session: { userId: string; userAgent: string; ipAddress: string },
    executor: Executor,
  ): Promise<void> {
    const client = { userAgent: session.userAgent, ipAddress: session.ipAddress };
    await this.cancel(executor, { userId: session.userId }, 'sign_in', client);
    if (await isUserErased(executor, session.userId)) throw unauthorized();
  }

  /** What the profile shows: when the account goes, or that a sign-in has just kept it. */
  async status(userId: string) {
    const row = await findDeletion(this.deps.db, userId);
    return {
      dueAt: row && !row.cancelledAt ? row.dueAt : null,
      isCancelledBySignIn: row?.cancelledBy === 'sign_in',
    };
  }

  /** The owner has read that a sign-in cancelled the deletion. */
  async acknowledge(userId: string): Promise<void> {
    await deleteCancelledDeletion(this.deps.db, userId);
  }

  private async cancel(
    executor: Executor,
    by: { userId: string } | { tokenHash: string },
    cancelledBy: DeletionCancelledBy,
    client: EventClient,
  ): Promise<boolean> {
    const { clock, mail, config, securityLog } = this.deps;
    const userId = await cancelWaitingDeletion(executor, by, cancelledBy, clock.now());
    if (!userId) return false;
    const user = await findUserById(executor, userId);
    if (user) {
      await mail.enqueue(
        deletionCancelledLetter(config, { to: user.email, firstName: user.firstName, cancelledBy }),
        executor,
      );
    }
    await securityLog.record(executor, userId, 'deletion_cancelled', client, { cancelledBy });
    return true;
  }
}

const conflict = (message: string) => new AppError('conflict', message);

/** Why the account cannot be deleted now, or null: each of these would be lost with it. */
async function refusalOf(
  executor: Executor,
  userId: string,
  kopecks: number,
  now: Date,
): Promise<string | null> {
  if (kopecks > 0) return ACCOUNT_DATA_MESSAGES.roublesLeft;
  if (await hasActivePaidService(executor, userId, now)) return ACCOUNT_DATA_MESSAGES.activeService;
  if (await hasTopUpInProgress(executor, userId)) return ACCOUNT_DATA_MESSAGES.topUpInProgress;
  return null;
}
