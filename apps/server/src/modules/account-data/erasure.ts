import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { DataOwners } from '../../db/data-owners.js';
import type { Db } from '../../db/database.js';
import { eraseUserIdentity, lockUserBalances } from '../accounts/index.js';
import { claimDueDeletion, dueDeletions } from './repository.js';

/**
 * What an erasure takes, table by table, is said by the module owning each table
 * (`DataOwner.erase`, db/data-owners.ts), registered by its plugin; this file names no other
 * module's table. The erasure test checks every table of the database for what remains, and
 * data-owners.test.ts that every table has one owner that erases or keeps it. Money records stay
 * (payments, ledger entries, refunds, services, service orders, receipts: their owners say
 * `keep`); only the customer's e-mail and phone are taken out of the receipts the provider
 * reported and of the sandbox's copy of each receipt sent with Init.
 */
export interface ErasureDeps {
  db: Db;
  clock: Clock;
  dataOwners: DataOwners;
  log: FastifyBaseLogger;
}

/** Accounts erased per run at most; the rest wait for the next hour. */
const ERASED_PER_RUN = 100;

/** The housekeeping job's step: erases every account whose deletion is due; answers how many. */
export async function eraseDueAccounts(deps: ErasureDeps): Promise<number> {
  const now = deps.clock.now();
  let erased = 0;
  for (const userId of await dueDeletions(deps.db, now, ERASED_PER_RUN)) {
    if (await eraseAccount(deps, userId, now)) erased += 1;
  }
  return erased;
}

class ErasureHeldBack extends Error {}

/**
 * Erases one account in one transaction: the deletion's row is claimed first (deleted), so two
 * processes running the job at once erase it once; the other finds nothing and does nothing.
 * Then the balance is locked, every owner erases its part, and the identity goes last. What an
 * owner leaves for after the commit (the stored files) runs only once it committed (a crash in
 * between leaves files nobody can reach, never a half-erased account).
 */
export async function eraseAccount(deps: ErasureDeps, userId: string, now: Date) {
  const { db, dataOwners, log } = deps;
  let afterCommit: (() => Promise<void>)[] = [];
  let isErased = false;
  try {
    await db.transaction(async (tx) => {
      if (!(await claimDueDeletion(tx, userId, now))) return;
      const balances = await lockUserBalances(tx, userId);
      if (!balances) return;
      // Roubles cannot arrive without a session (every one ended, and a sign-in cancels), but
      // money is never erased silently: the deletion waits, and the operator is told.
      if (balances.kopecks > 0) throw new ErasureHeldBack();
      const works: (() => Promise<void>)[] = [];
      const account = {
        userId,
        emailKey: balances.email.trim().toLowerCase(),
        afterCommit: (work: () => Promise<void>) => {
          works.push(work);
        },
      };
      // In the order the owners registered: the mail outbox first (core), then the modules in
      // app.ts's order; the uploads' files and the sessions' marks are their owners' business.
      for (const owner of dataOwners.list()) await owner.erase?.(tx, account);
      // The identity last: the tombstone (modules/accounts).
      isErased = await eraseUserIdentity(tx, userId, now);
      afterCommit = works;
    });
  } catch (error) {
    if (!(error instanceof ErasureHeldBack)) throw error;
    log.error({ userId }, 'account erasure held back: roubles on the balance');
    return false;
  }
  for (const work of afterCommit) await work();
  return isErased;
}
