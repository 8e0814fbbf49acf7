/**
 * `npm run backup -- <folder>` and `npm run restore -- <folder>`: everything a portal needs to
 * come back elsewhere, with the same settings as the portal itself (the environment).
 *
 * A backup folder holds:
 * - the database: `database.tar.gz` (the embedded database's data directory, taken consistent:
 *   from the running portal through its loopback-only `GET /ops/backup`, or opened directly when
 *   no portal runs) or `database.pgdump` (pg_dump of DATABASE_URL, consistent by itself);
 * - `secret.key`: without it the authenticator secrets cannot be read and codes in flight are
 *   void (when SECRET_KEY comes from the environment, keeping it is the operator's job);
 * - `uploads/`: the avatars of a local upload directory (a bucket is backed up with the bucket);
 * - `backup.json`: what is in it.
 * Uploads are copied after the database, and a file is written before its row: every avatar the
 * database names is in the copy.
 *
 * Restore goes only into a new place: an empty DATA_DIR for the embedded database, an empty
 * database for PostgreSQL. Nothing existing is overwritten.
 */
import '../../../scripts/require-node.mjs';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type Config, ConfigError, loadConfig } from './config.js';
import { DataDirLocked, lockDataDir } from './db/data-dir-lock.js';
import { createPglite, openPglite } from './db/database.js';

interface Manifest {
  createdAt: string;
  database: 'embedded' | 'postgres';
  secretKey: 'file' | 'environment';
  uploads: 'folder' | 'bucket' | 'none';
}

const FILES = {
  manifest: 'backup.json',
  embedded: 'database.tar.gz',
  postgres: 'database.pgdump',
  secret: 'secret.key',
  uploads: 'uploads',
} as const;

class Refusal extends Error {}

function isEmptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

function runTool(program: string, args: string[]) {
  const result = spawnSync(program, args, { stdio: ['ignore', 'inherit', 'pipe'] });
  if (result.error) throw new Refusal(`${program} не запускается: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Refusal(`${program} завершился с ошибкой: ${String(result.stderr).trim()}`);
  }
}

/** The embedded database, consistent: from the running portal, or opened here when none runs. */
async function embeddedSnapshot(config: Config): Promise<Buffer> {
  let release: () => void;
  try {
    release = await lockDataDir(config.DATA_DIR);
  } catch (error) {
    if (!(error instanceof DataDirLocked)) throw error;
    const response = await fetch(`http://127.0.0.1:${config.PORT}/ops/backup`).catch(() => null);
    if (!response?.ok) {
      throw new Refusal(
        `Портал работает, но не отдал копию базы на 127.0.0.1:${config.PORT} ` +
          '(запустите копирование с теми же PORT и DATA_DIR, что у портала)',
      );
    }
    return Buffer.from(await response.arrayBuffer());
  }
  try {
    const database = await openPglite(path.join(config.DATA_DIR, 'pgdata'));
    try {
      const snapshot = await database.snapshot();
      return Buffer.from(await snapshot!.arrayBuffer());
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

async function backup(target: string, config: Config) {
  if (!isEmptyOrMissing(target)) throw new Refusal(`Папка для копии не пуста: ${target}`);
  mkdirSync(target, { recursive: true });
  const manifest: Manifest = {
    createdAt: new Date().toISOString(),
    database: config.DATABASE_URL ? 'postgres' : 'embedded',
    secretKey: process.env.SECRET_KEY ? 'environment' : 'file',
    uploads: config.S3_ENDPOINT ? 'bucket' : existsSync(config.UPLOAD_DIR) ? 'folder' : 'none',
  };
  if (config.DATABASE_URL) {
    runTool('pg_dump', [
      '--format=custom',
      '--no-owner',
      `--file=${path.join(target, FILES.postgres)}`,
      config.DATABASE_URL,
    ]);
  } else {
    writeFileSync(path.join(target, FILES.embedded), await embeddedSnapshot(config));
  }
  if (manifest.secretKey === 'file') {
    writeFileSync(path.join(target, FILES.secret), config.SECRET_KEY, { mode: 0o600 });
  }
  if (manifest.uploads === 'folder') {
    cpSync(config.UPLOAD_DIR, path.join(target, FILES.uploads), { recursive: true });
  }
  writeFileSync(path.join(target, FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

async function restore(source: string, config: Config) {
  const manifestFile = path.join(source, FILES.manifest);
  if (!existsSync(manifestFile))
    throw new Refusal(`Нет ${FILES.manifest} в ${source}: это не копия портала`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;

  if (manifest.database === 'embedded') {
    if (config.DATABASE_URL) {
      throw new Refusal('Копия встроенной базы: восстановите её без DATABASE_URL');
    }
    const release = await lockDataDir(config.DATA_DIR);
    try {
      const pgdata = path.join(config.DATA_DIR, 'pgdata');
      if (!isEmptyOrMissing(pgdata)) {
        throw new Refusal(
          `В ${config.DATA_DIR} уже есть база: восстанавливайте в новую папку данных`,
        );
      }
      const tarball = new Blob([readFileSync(path.join(source, FILES.embedded))]);
      const client = await createPglite(pgdata, { loadDataDir: tarball });
      await client.close();
    } finally {
      release();
    }
  } else {
    if (!config.DATABASE_URL)
      throw new Refusal('Копия PostgreSQL: задайте DATABASE_URL пустой базы');
    const client = new pg.Client({ connectionString: config.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = 'public'",
      );
      if ((rows[0]?.count ?? 0) > 0)
        throw new Refusal('База DATABASE_URL не пуста: восстанавливайте в новую');
    } finally {
      await client.end();
    }
    runTool('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      `--dbname=${config.DATABASE_URL}`,
      path.join(source, FILES.postgres),
    ]);
  }

  if (manifest.secretKey === 'file') {
    const secret = readFileSync(path.join(source, FILES.secret), 'utf8');
    const file = path.join(config.DATA_DIR, FILES.secret);
    if (process.env.SECRET_KEY && process.env.SECRET_KEY !== secret) {
      throw new Refusal(
        'SECRET_KEY отличается от ключа копии: уберите его или задайте ключ из копии',
      );
    }
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, secret, { mode: 0o600 });
  }
  if (manifest.uploads === 'folder') {
    cpSync(path.join(source, FILES.uploads), config.UPLOAD_DIR, { recursive: true });
  }
  return manifest;
}

const NOTES: Record<string, (manifest: Manifest) => string[]> = {
  backup: (m) => [
    ...(m.secretKey === 'environment'
      ? ['SECRET_KEY задан в окружении: храните его вместе с копией.']
      : []),
    ...(m.uploads === 'bucket'
      ? ['Аватары лежат в бакете S3: его копируют средствами хранилища.']
      : []),
  ],
  restore: (m) => [
    ...(m.secretKey === 'environment'
      ? ['Задайте порталу тот же SECRET_KEY, что был при копировании.']
      : []),
  ],
};

async function main() {
  const [command, folder] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !folder) {
    console.error('Использование: npm run backup -- <папка>   или   npm run restore -- <папка>');
    process.exit(2);
  }
  try {
    // The restore writes DATA_DIR/secret.key itself: no key is generated before it.
    const config = loadConfig(
      command === 'restore' && !process.env.SECRET_KEY
        ? { ...process.env, SECRET_KEY: 'x'.repeat(32) }
        : process.env,
    );
    const target = path.resolve(folder);
    const manifest =
      command === 'backup' ? await backup(target, config) : await restore(target, config);
    console.info(command === 'backup' ? `Копия готова: ${target}` : `Восстановлено из ${target}`);
    for (const note of NOTES[command]!(manifest)) console.info(note);
  } catch (error) {
    if (
      error instanceof Refusal ||
      error instanceof DataDirLocked ||
      error instanceof ConfigError
    ) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

await main();
