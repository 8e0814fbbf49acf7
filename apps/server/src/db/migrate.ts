import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../paths.js';
import type { Database } from './database.js';

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

/**
 * Applies every migration not applied yet, each in its own transaction, under a lock so that
 * several processes starting together apply each one once. A landed migration whose text changed
 * stops the start: migrations are never edited after landing.
 */
export async function migrate(
  database: Database,
  migrations = readMigrations(),
): Promise<string[]> {
  return database.withMigrationLock(async (session) => {
    await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await session.query<{ name: string; checksum: string }>(
      'SELECT name, checksum FROM schema_migrations',
    );
    const applied = new Map(rows.map((row) => [row.name, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new Error(`Миграция ${migration.name} изменена после применения`);
        }
        continue;
      }
      await session.exec('BEGIN');
      try {
        await session.exec(migration.sql);
        await session.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
        await session.exec('COMMIT');
      } catch (error) {
        await session.exec('ROLLBACK');
        throw new Error(`Миграция ${migration.name} не применена: ${(error as Error).message}`);
      }
      done.push(migration.name);
    }
    return done;
  });
}
