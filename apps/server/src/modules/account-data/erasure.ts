import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../adapters/clock.js';
import type { FileStorage } from '../../adapters/storage.js';
import type { Db, Tx } from '../../db/database.js';
import { eraseUserIdentity, lockUserBalances } from '../accounts/index.js';
import type { SessionStore } from '../auth/index.js';
import { claimDueDeletion, dueDeletions } from './repository.js';

export interface ErasureDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
  storage: FileStorage;
  log: FastifyBaseLogger;
}

/** Accounts erased per run at most; the rest wait for the next hour. */
const ERASED_PER_RUN = 100;

/**
 * Everything else the portal keeps about an account, by table, deleted in the erasure's
 * transaction. Like the housekeeping purge (housekeeping/purge.ts) it names the tables itself; the
 * erasure test checks every table of the database for what remains, so a new table that keeps
 * personal data and is missing here fails it. Money records stay: payments, ledger entries,
 * services, service orders and fiscal receipts; only the customer's e-mail and phone are taken out
 * of the receipts the provider reported and of the sandbox's copy of each receipt sent with Init
 * (the test checks that none of them holds an e-mail or a name afterwards).
 */
const erasureStatements = (userId: string, emailKey: string) => ({
  // Letters first: to the account's address and to any address its codes carried (a new e-mail).
  mail_outbox: sql`DELETE FROM mail_outbox WHERE lower(to_address) = ${emailKey}
    OR lower(to_address) IN (
      SELECT lower(value) FROM one_time_codes, jsonb_each_text(coalesce(payload, '{}'::jsonb))
      WHERE user_id = ${userId})`,
  one_time_codes: sql`DELETE FROM one_time_codes
    WHERE user_id = ${userId} OR subject IN (${userId}, ${emailKey})`,
  login_throttles: sql`DELETE FROM login_throttles WHERE subject = ${`user:${userId}`}`,
  hand_off_codes: sql`DELETE FROM hand_off_codes WHERE user_id = ${userId}`,
  email_changes: sql`DELETE FROM email_changes WHERE user_id = ${userId}`,
  sessions: sql`DELETE FROM sessions WHERE user_id = ${userId}`,
  sibling_users: sql`DELETE FROM sibling_users WHERE user_id = ${userId}`,
  two_factor_recovery_codes: sql`DELETE FROM two_factor_recovery_codes WHERE user_id = ${userId}`,
  two_factor_authenticators: sql`DELETE FROM two_factor_authenticators WHERE user_id = ${userId}`,
  password_reset_logout_grants: sql`DELETE FROM password_reset_logout_grants
    WHERE user_id = ${userId}`,
  telegram_link_tokens: sql`DELETE FROM telegram_link_tokens WHERE user_id = ${userId}`,
  yandex_flows: sql`DELETE FROM yandex_flows WHERE user_id = ${userId}`,
  security_events: sql`DELETE FROM security_events WHERE user_id = ${userId}`,
  passkeys: sql`DELETE FROM passkeys WHERE user_id = ${userId}`,
  passkey_challenges: sql`DELETE FROM passkey_challenges WHERE user_id = ${userId}`,
  receipts: sql`UPDATE receipts SET raw = raw - 'Receipt' WHERE user_id = ${userId}`,
  sandbox_payments: sql`UPDATE sandbox_payments SET receipt = receipt - 'Email' - 'Phone'
    WHERE receipt IS NOT NULL
      AND order_id IN (SELECT id::text FROM payments WHERE user_id = ${userId})`,
});

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
 * processes running the job at once erase it once; the other finds nothing and does nothing. The
 * stored files go after the commit (a crash in between leaves files nobody can reach, never a
 * half-erased account).
 */
export async function eraseAccount(deps: ErasureDeps, userId: string, now: Date) {
  const { db, sessions, storage, log } = deps;
  let uploadKeys: string[] = [];
  let isErased = false;
  try {
    await db.transaction(async (tx) => {
      if (!(await claimDueDeletion(tx, userId, now))) return;
      const balances = await lockUserBalances(tx, userId);
      if (!balances) return;
      // Roubles cannot arrive without a session (every one ended, and a sign-in cancels), but
      // money is never erased silently: the deletion waits, and the operator is told.
      if (balances.kopecks > 0) throw new ErasureHeldBack();
      uploadKeys = await deleteUploads(tx, userId);
      // Through the store, as logout-all: every process stops accepting the sessions at once.
      await sessions.revokeAll(userId, {}, tx);
      const emailKey = balances.email.trim().toLowerCase();
      for (const statement of Object.values(erasureStatements(userId, emailKey))) {
        await tx.execute(statement);
      }
      isErased = await eraseUserIdentity(tx, userId, now);
    });
  } catch (error) {
    if (!(error instanceof ErasureHeldBack)) throw error;
    log.error({ userId }, 'account erasure held back: roubles on the balance');
    return false;
  }
  for (const key of uploadKeys) {
    await storage.remove(key).catch((error: unknown) => {
      log.error({ err: error, key }, 'an erased account’s file could not be removed');
    });
  }
  return isErased;
}

/** The uploads' rows go in the transaction; their files after it. Answers the files' keys. */
async function deleteUploads(tx: Tx, userId: string): Promise<string[]> {
  const result = (await tx.execute(
    sql`DELETE FROM uploads WHERE user_id = ${userId} RETURNING key`,
  )) as unknown as { rows: { key: string }[] };
  return result.rows.map((row) => row.key);
}
