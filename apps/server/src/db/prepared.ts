import type { Db } from './database.js';

/**
 * Statements built once per database, to be prepared by name (drizzle's `.prepare(name)` with
 * `sql.placeholder`s): drizzle otherwise builds a statement's text anew on every call, which on
 * the hot paths costs more CPU than the statement itself (docs/benchmarks.md, the OpenID
 * provider's rounds). On PostgreSQL a named statement is parsed once per connection; on PGlite
 * only the building is spared. A prepared statement runs on the database it was built for, never
 * inside a transaction: a statement of a transaction is built there.
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
