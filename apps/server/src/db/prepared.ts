import type { Query } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, Executor } from './database.js';

/** Whether `executor` is a transaction, where a statement prepared on the database cannot run. */
export function isTransaction(executor: Executor): executor is Exclude<Executor, Db> {
  return executor instanceof PgTransaction;
}

/**
 * Statements built once per database, to be prepared by name (drizzle's `.prepare(name)` with
 * `sql.placeholder`s): drizzle otherwise builds a statement's text anew on every call, which on
 * the hot paths costs more CPU than the statement itself (docs/benchmarks.md, the OpenID
 * provider's rounds). On PostgreSQL a named statement is parsed once per connection; on PGlite
 * only the building is spared. Such a statement runs on the database it was built for, never
 * inside a transaction: for one that must, `statementForAnyExecutor`.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let statements = built.get(db);
    if (!statements) {
      statements = build(db);
      built.set(db, statements);
    }
    return statements;
  };
}

/**
 * A statement built once (`build` answers drizzle's query, with `sql.placeholder`s, unexecuted)
 * and run by `name` on whichever executor it is given: the database, or the caller's transaction
 * (drizzle's session of it prepares the statement from the text built before, which costs
 * nothing like building it). Its rows come back as the database names the columns, unmapped: for
 * a `returning` of ids and the like. A value for a json column is given serialised, and its
 * placeholder cast (`sql\`${sql.placeholder('x')}::jsonb\``): a placeholder skips the column's
 * own mapping.
 */
export function statementForAnyExecutor<Row>(
  name: string,
  build: (db: Db) => { toSQL(): Query },
): (executor: Executor, values: Record<string, unknown>) => Promise<Row[]> {
  let query: Query | undefined;
  return async (executor, values) => {
    query ??= build(executor as Db).toSQL();
    const result = await executor._.session
      .prepareQuery(query, undefined, name, false)
      .execute(values);
    return (result as { rows: Row[] }).rows;
  };
}
