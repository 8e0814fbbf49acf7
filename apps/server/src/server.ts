import { z } from 'zod';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';

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

  const database = await openDatabase(config);
  try {
    await database.ping();
  } catch (error) {
    await database.close().catch(() => {});
    return fail(
      `База данных недоступна (${config.DATABASE_URL ? 'DATABASE_URL' : config.DATA_DIR}): ${(error as Error).message}`,
    );
  }
  try {
    await migrate(database);
  } catch (error) {
    await database.close().catch(() => {});
    return fail((error as Error).message);
  }

  const app = await buildApp({ config, database });
  app.addHook('onClose', async () => {
    await database.close();
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await database.close().catch(() => {});
    return fail(`Не удалось открыть порт ${config.PORT}: ${(error as Error).message}`);
  }
  const where = config.DATABASE_URL ? 'PostgreSQL' : `встроенная база в ${config.DATA_DIR}`;
  console.info(
    `Портал запущен: ${config.PUBLIC_URL} (${where}); письма: ${app.deps.mail.describe()}`,
  );
}

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

void main();
