import '../../../scripts/require-node.mjs';
import { z } from 'zod';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLocked, lockDataDir } from './db/data-dir-lock.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';

/** In-flight requests get this long to finish after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Starts the portal: configuration, database, migrations, then listen; stops gracefully. */
async function main() {
  z.config(z.locales.ru());
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }

  // The embedded database belongs to one process (db/data-dir-lock.ts).
  let releaseDataDir = () => {};
  if (!config.DATABASE_URL) {
    try {
      releaseDataDir = await lockDataDir(config.DATA_DIR);
    } catch (error) {
      if (error instanceof DataDirLocked) return fail(error.message);
      throw error;
    }
    process.on('exit', () => releaseDataDir());
  }

  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase(config);
    await database.ping();
  } catch (error) {
    return fail(
      `База данных недоступна (${config.DATABASE_URL ? 'DATABASE_URL' : config.DATA_DIR}): ${firstLine(error)}`,
    );
  }
  try {
    await migrate(database);
  } catch (error) {
    await database.close().catch(() => {});
    return fail(firstLine(error));
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, database });
  } catch (error) {
    await database.close().catch(() => {});
    // A setting only a module can check (OIDC_CLIENTS against the OpenID library).
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }

  // A reader of our output that has gone away must not turn logging into a crash or a hang.
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    // Armed first, whatever happens next: a database that is gone or a letter stuck in flight
    // cannot hold the process past the grace period.
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    app.log.info({ signal }, 'shutting down');
    // The database closes after the app, not in an onClose hook: Fastify runs those last-added
    // first, and the modules' own (the bot, the notices, the mail sender) still use it as they stop.
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await database.close().catch(() => {});
    return fail(`Не удалось открыть порт ${config.PORT}: ${(error as Error).message}`);
  }
  const where = config.DATABASE_URL ? 'PostgreSQL' : `встроенная база в ${config.DATA_DIR}`;
  console.info(
    `Портал запущен: ${config.PUBLIC_URL} (${where}); письма: ${app.deps.mail.describe()}; Node.js ${process.versions.node}`,
  );
}

/** An error in one line: the embedded database's aborts carry kilobytes of compiled source. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.split('\n')[0]?.trim() || 'неизвестная ошибка';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

void main();
