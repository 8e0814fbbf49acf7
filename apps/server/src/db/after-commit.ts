/**
 * Work that must wait until a transaction has committed, asked for by code that runs inside the
 * transaction without owning it: the marks of revoked sessions (modules/auth/sessions.ts) are
 * written once the revocation is committed, and never for one that rolled back, whoever began
 * the transaction. Drizzle has no commit hook, so the database's `transaction` (database.ts) is
 * wrapped once, where the database is opened: every transaction it begins runs its list after
 * the commit, before its promise resolves.
 */
import { is } from 'drizzle-orm';
import { type PgDatabase, type PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';

/** The database or one of its transactions (database.ts's `Executor`, named without a cycle). */
type AnyExecutor = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** Must not throw: the transaction has committed, and its caller expects its own answer. */
export type AfterCommitWork = () => Promise<void>;

const pending = new WeakMap<AnyExecutor, AfterCommitWork[]>();

/** Makes every `db.transaction` run, once committed, what `afterCommit` was given inside it. */
export function runAfterCommit<Db extends AnyExecutor>(db: Db): Db {
  const begin = db.transaction.bind(db);
  const transaction: AnyExecutor['transaction'] = async (body, config) => {
    const works: AfterCommitWork[] = [];
    const result = await begin((tx) => {
      pending.set(tx, works);
      return body(tx);
    }, config);
    for (const work of works) await work();
    return result;
  };
  db.transaction = transaction;
  return db;
}

/**
 * Runs `work` once `executor`'s transaction has committed (not at all if it rolls back), or at
 * once when `executor` is the database itself: each statement outside a transaction is committed
 * when it resolves. A transaction not begun by the wrapped `db.transaction` (a nested one) is
 * refused loudly rather than the work being lost.
 */
export async function afterCommit(executor: AnyExecutor, work: AfterCommitWork): Promise<void> {
  const works = pending.get(executor);
  if (works) {
    works.push(work);
    return;
  }
  if (is(executor, PgTransaction)) {
    throw new Error('afterCommit: a transaction not begun by db.transaction (database.ts)');
  }
  await work();
}
