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

/**
 * Checksums a landed migration had before only its comments were reworded (the SQL is the same).
 * A database that recorded one of these is up to date; its record is moved to the new checksum.
 * Any other change of a landed migration still stops the start.
 */
const EARLIER_CHECKSUMS: Record<string, readonly string[]> = {
  '0100_auth.sql': ['6f4457d1e8519d6c16352f1a1d7a99ad826f2c68c56e2aecf260d5638353f463'],
  '0200_two_factor.sql': ['bdc24b765d01d863afda3cd998937fe56f8b09df38678577644690421a44a00b'],
  '0210_security.sql': ['ebed3ee016f83982d2f84a7eef5df31e1fea3c896a14700652e1ce5c47ae1d30'],
  '0300_uploads.sql': ['bc4d44e2fd1e8b82a5f171d4c7c7a4996993fbcdfaa8eb2484cd0823699b2b43'],
  '0310_telegram.sql': ['4ee97b40a740f75e6239dea1ba4a4d81463df4c14d0eb7b10a2a98a386aa9b64'],
  '0320_email_change.sql': ['5d5733d6d7a3e813c8d87237a235fa91b50cb13ede0164f87e999ab5425b174c'],
  '0400_ledger_and_payments.sql': [
    '9cfd9552ad7eafd8b330daf13b362f017e467e4f39af8d56d0aec63c9e4e2f86',
  ],
  '0410_payment_sandbox.sql': ['6d32b950ad87b5e8a75211041339f88ab8dca76d45eb45899afdf861ad28eaf6'],
  '0450_services.sql': ['05c88cc9687385f72bb286dedfdeefa4a3c8df244a73a44730332f54ced42bb6'],
};

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
        if (checksum === migration.checksum) continue;
        if (!EARLIER_CHECKSUMS[migration.name]?.includes(checksum)) {
          throw new Error(`Миграция ${migration.name} изменена после применения`);
        }
        await session.query('UPDATE schema_migrations SET checksum = $2 WHERE name = $1', [
          migration.name,
          migration.checksum,
        ]);
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
