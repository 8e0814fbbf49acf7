import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { runAfterCommit } from './after-commit.js';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Repositories take either the database or an open transaction. */
export type Executor = Db | Tx;

/** The raw SQL surface the migrator needs, the same for both engines. */
interface SqlSession {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** What a listener on a NOTIFY channel is told. */
export interface ChannelHandlers {
  onNotify(payload: string): void;
  /** The subscription is in place (again): anything sent before this moment may have been missed. */
  onListening(): void;
  /** The subscription is gone until the next `onListening`: notifications meanwhile are lost. */
  onLost(): void;
}

export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly db: Db;
  /** Runs `fn` on one connection holding the migration lock. */
  withMigrationLock<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Listens on a NOTIFY channel (delivered after the notifying transaction commits) until the
   * answered function is called. Resolves after the first attempt to subscribe; a lost
   * subscription is renewed in the background.
   */
  listen(channel: string, handlers: ChannelHandlers): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  /**
   * The embedded database's whole data directory as a gzipped tar, consistent: taken while no
   * other transaction runs. Null for PostgreSQL, which pg_dump backs up while it runs.
   */
  snapshot(): Promise<Blob | null>;
  close(): Promise<void>;
}

const MIGRATION_LOCK_KEY = 727_274_001;

/**
 * Deadlines on the way to PostgreSQL, so that a hung server (frozen, not stopped: connections
 * stay open and nothing answers) costs a request a few seconds and a Russian 503, not a hang:
 * a connection is had within 2 s or not at all, and a query answers within 4 s (checked by the
 * client, since a frozen server enforces nothing; the server's own statement_timeout stops a
 * runaway query). Migrations and the LISTEN connection have connections of their own, without
 * them.
 */
export const POSTGRES_DEADLINES = { connectMs: 2_000, queryMs: 4_000 } as const;

export function connectPostgres(url: string): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: POSTGRES_DEADLINES.connectMs,
    query_timeout: POSTGRES_DEADLINES.queryMs,
    statement_timeout: POSTGRES_DEADLINES.queryMs,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one (a transaction in progress): pg emits 'error' on the client, and the
  // pool listens only while the client is idle. The query in flight still fails (503 upstream),
  // and the broken client is discarded when released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = runAfterCommit(drizzleNodePg(pool, { schema }) as unknown as Db);
  return {
    kind: 'postgres',
    db,
    async withMigrationLock(fn) {
      // A long migration, or waiting for another process's, is not held to the query deadline.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        return await fn({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async (sql, params) => (await client.query(sql, params)).rows,
        });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
        await client.end().catch(() => {});
      }
    },
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    async ping() {
      await pool.query('SELECT 1');
    },
    snapshot: async () => null,
    async close() {
      await pool.end();
    },
  };
}

const RELISTEN_AFTER_MS = 1_000;

/** A connection of its own that LISTENs, and reconnects after losing the server. */
async function listenPostgres(url: string, channel: string, handlers: ChannelHandlers) {
  let current: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const scheduleRetry = () => {
    if (stopped) return;
    retry = setTimeout(() => void subscribe(), RELISTEN_AFTER_MS);
    retry.unref();
  };
  const subscribe = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    // 'error' is followed by 'end'; the end is what matters here.
    client.on('error', () => {});
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) {
        handlers.onNotify(message.payload);
      }
    });
    client.on('end', () => {
      if (current !== client) return;
      current = null;
      handlers.onLost();
      scheduleRetry();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      client.end().catch(() => {});
      scheduleRetry();
      return;
    }
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    handlers.onListening();
  };

  await subscribe();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}

/**
 * Every embedded database is made here, with the extensions the migrations create: PGlite
 * ships each one as a bundle that must be loaded when the database starts
 * (`pg_trgm`: the account search's index, migrations/0805_account_search.sql).
 */
export function createPglite(
  dataDir: string | undefined,
  options: Pick<PGliteOptions, 'loadDataDir'> = {},
): Promise<PGlite> {
  return PGlite.create(dataDir, { ...options, extensions: { pg_trgm } });
}

/** Embedded PostgreSQL: a directory on disk, or memory when `dataDir` is undefined. */
export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true });
  const client = await createPglite(dataDir, { loadDataDir: options.loadDataDir });
  return pgliteDatabase(client);
}

export function pgliteDatabase(client: PGlite): Database {
  const db = runAfterCommit(drizzlePglite(client, { schema }) as unknown as Db);
  const session: SqlSession = {
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) =>
      (await client.query<T>(sql, params as never[])).rows,
  };
  return {
    kind: 'pglite',
    db,
    // One embedded database has exactly one connection and one process: nothing to race with.
    withMigrationLock: (fn) => fn(session),
    // The embedded database delivers a notification before the committing query resolves.
    async listen(channel, handlers) {
      const stop = await client.listen(channel, handlers.onNotify);
      handlers.onListening();
      return async () => {
        if (!client.closed) await stop();
      };
    },
    async ping() {
      await client.query('SELECT 1');
    },
    // Inside a transaction of its own, so no other transaction is half-way through the files.
    snapshot: () => client.transaction(() => client.dumpDataDir('gzip')),
    async close() {
      if (!client.closed) await client.close();
    },
  };
}

export async function openDatabase(config: {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}): Promise<Database> {
  if (config.DATABASE_URL) return connectPostgres(config.DATABASE_URL);
  return openPglite(path.join(config.DATA_DIR, 'pgdata'));
}
