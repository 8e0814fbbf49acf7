import { type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from './database.js';

/**
 * Each module owns its data: the tables its `schema.ts` declares, what the account's erasure does
 * to them and what the hourly purge takes from them. A module says so once, in a `DataOwner` its
 * plugin registers with `app.deps.dataOwners.register(…)`; the erasure
 * (modules/account-data/erasure.ts) and the purge (modules/housekeeping/purge.ts) only run what
 * the owners registered, and modules/account-data/data-owners.test.ts fails on a table of the
 * database that no owner, or two, declare.
 *
 * The registry lives in the core (core-plugin.ts), not in a module: every module registers into
 * it, the earliest ones before the erasure's module exists.
 */
export interface DataOwner {
  /** The module's name, as its plugin is named (`auth`, `payments`…; `core` for the mail outbox). */
  module: string;
  /** Every table the module's `schema.ts` declares, and what becomes of it on an erasure. */
  tables: OwnedTable[];
  /**
   * Erases the account's rows, inside the erasure's one transaction. Owners run in the order
   * they registered: the core first (the mail outbox, found through the codes' addresses before
   * the codes go), then the plugins in app.ts's order.
   */
  erase?(tx: Tx, account: ErasedAccount): Promise<void>;
  /** Deletes what expired; answers how many rows each table lost. */
  purge?(db: Db, now: Date): Promise<Record<string, number>>;
}

export type OwnedTable =
  /** The account's rows go (or lose what names the person), by `erase` or as `why` says. */
  | { name: string; onErasure: 'erase'; why?: string }
  /** The rows stay after the erasure; `why` says why in a line (money records, say). */
  | { name: string; onErasure: 'keep'; why: string };

/** The account an erasure is at, as each owner's `erase` sees it. */
export interface ErasedAccount {
  userId: string;
  /** The account's e-mail, trimmed and lower-cased (letters and codes are found by it). */
  emailKey: string;
  /** Work done once the transaction committed (files in storage); never if it rolls back. */
  afterCommit(work: () => Promise<void>): void;
}

/** `app.deps.dataOwners`: the owners in the order they registered. */
export class DataOwners {
  private readonly owners: DataOwner[] = [];

  register(owner: DataOwner): void {
    this.owners.push(owner);
  }

  list(): readonly DataOwner[] {
    return this.owners;
  }
}

/** How many rows a `DELETE` run through `db.execute` touched, on PostgreSQL and on PGlite. */
export function rowsTouched(result: unknown): number {
  const { rowCount, affectedRows } = result as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return rowCount ?? affectedRows ?? 0;
}

/** Runs each statement in turn on `db`; answers the rows each (by table) deleted. */
export async function purgeEach(
  db: Db,
  statements: Record<string, SQL>,
): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const [table, statement] of Object.entries(statements)) {
    deleted[table] = rowsTouched(await db.execute(statement));
  }
  return deleted;
}

/** A table whose rows stop mattering some time after a moment one of its columns holds. */
export interface ExpiringRows {
  table: string;
  /** The column of the moment (`expires_at`, `occurred_at`…). */
  after: string;
  /** How long a row is kept once that moment passed. */
  keptMs: number;
}

/**
 * The owner most modules are: tables whose rows carry the account's `user_id`, erased with the
 * account in the order given, and rows purged some time after a moment they hold. A module whose
 * data needs more (files in storage, rows kept on purpose) writes its `DataOwner` itself.
 */
export function accountRowsOwner(owner: {
  module: string;
  /** Every table of the module, each of whose rows names the account by `user_id`. */
  tables: string[];
  purge?: ExpiringRows[];
}): DataOwner {
  const { purge = [] } = owner;
  return {
    module: owner.module,
    tables: owner.tables.map((name) => ({ name, onErasure: 'erase' })),
    async erase(tx, { userId }) {
      for (const table of owner.tables) {
        await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE user_id = ${userId}`);
      }
    },
    ...(purge.length > 0 && {
      purge(db: Db, now: Date) {
        const statements = Object.fromEntries(
          purge.map(({ table, after, keptMs }) => {
            const before = new Date(now.getTime() - keptMs).toISOString();
            return [
              table,
              sql`DELETE FROM ${sql.identifier(table)} WHERE ${sql.identifier(after)} < ${before}`,
            ];
          }),
        );
        return purgeEach(db, statements);
      },
    }),
  };
}
