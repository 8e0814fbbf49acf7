import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPostgres, type Database, openPglite } from '../../src/db/database.js';
import { withDatabaseName } from './database-url.js';

/**
 * A fresh, migrated database for one test file: an in-memory copy of the embedded template, or,
 * with TEST_DATABASE_URL, a new PostgreSQL database cloned from the migrated template.
 * `close()` also drops it.
 */
export async function createTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = inject('postgresTemplate');
  if (adminUrl && template) {
    const name = `portal_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
    const database = connectPostgres(withDatabaseName(adminUrl, name));
    return {
      ...database,
      kind: database.kind,
      db: database.db,
      async close() {
        await database.close();
        await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      },
    };
  }
  const dump = readFileSync(inject('pgliteTemplate'));
  return openPglite(undefined, { loadDataDir: new Blob([dump]) });
}

async function adminQuery(url: string, sql: string) {
  // Two files cloning the template at the same instant can collide; one retry settles it.
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
      return;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    } finally {
      await client.end();
    }
  }
}
