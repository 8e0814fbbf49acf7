import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connectPostgres, type Database } from '../../../src/db/database.js';
import { migrate } from '../../../src/db/migrate.js';
import { withDatabaseName } from '../database-url.js';
import { POSTGRES_ADMIN_URL } from '../services.js';

/** Plain SQL, for checking what the servers wrote. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
}

export interface ScratchDatabase extends Sql {
  /** What the server processes get as DATABASE_URL. */
  url: string;
  /** The test's own connection for the fixtures of test/support/fixtures.ts. */
  database: Database;
  drop(): Promise<void>;
}

/** A new, migrated PostgreSQL database on the machine's server, for one test file. */
export async function createScratchDatabase(
  adminUrl = POSTGRES_ADMIN_URL,
): Promise<ScratchDatabase> {
  const name = `portal_system_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
  const url = withDatabaseName(adminUrl, name);
  const database = connectPostgres(url);
  await migrate(database);
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => {});
  return {
    url,
    database,
    async query<Row>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as Row[];
    },
    async drop() {
      await database.close().catch(() => {});
      await pool.end().catch(() => {});
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
