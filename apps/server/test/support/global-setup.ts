import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectPostgres, createPglite, pgliteDatabase } from '../../src/db/database.js';
import { migrate } from '../../src/db/migrate.js';
import { withDatabaseName } from './database-url.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database, dumped; each test file loads its own copy. */
    pgliteTemplate: string;
    /** On PostgreSQL: a migrated database each test file clones with CREATE DATABASE … TEMPLATE. */
    postgresTemplate: string | null;
  }
}

/** Migrates once per run; test files then copy the result instead of migrating again. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-test-'));
  const client = await createPglite(undefined);
  await migrate(pgliteDatabase(client));
  const dump = await client.dumpDataDir('none');
  await client.close();
  const templateFile = path.join(dir, 'template.tar');
  writeFileSync(templateFile, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', templateFile);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let templateName: string | null = null;
  if (adminUrl) {
    templateName = `portal_template_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    await admin.end();
    const database = connectPostgres(withDatabaseName(adminUrl, templateName));
    await migrate(database);
    await database.close();
  }
  project.provide('postgresTemplate', templateName);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (adminUrl && templateName) {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await admin.end();
    }
  };
}
