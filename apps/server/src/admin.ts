/**
 * `npm run admin -- <command> …`: the support staff's tool (modules/operator/cli.ts has the
 * commands). It opens the portal's own database with the portal's own environment and builds the
 * portal's services as the portal does (app.ts), without listening and without starting any
 * background work (the mail sender, the Telegram bot, periodic jobs start only in a listening
 * portal), then runs one command and exits.
 *
 * The embedded database (no DATABASE_URL) belongs to one process (db/data-dir-lock.ts): while a
 * portal runs on it, the tool refuses with one line and touches nothing.
 */
import '../../../scripts/require-node.mjs';
import { z } from 'zod';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLocked, lockDataDir } from './db/data-dir-lock.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { execute, prepare } from './modules/operator/cli.js';
import { EXIT } from './modules/operator/context.js';

/** Commands that end sessions, which the running portals learn of through Redis. */
const REVOKING_COMMANDS = new Set(['block', 'end-sessions']);
const REDIS_WAIT_MS = 5_000;

async function isUpWithin(isUp: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (!isUp()) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  z.config(z.locales.ru());
  const prepared = prepare(process.argv.slice(2));
  // Help and a wrong command line need no database.
  if (prepared.kind !== 'run') {
    return execute({ out, err } as unknown as Parameters<typeof execute>[0], prepared);
  }

  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      err(error.message);
      return EXIT.refused;
    }
    throw error;
  }
  // Only warnings and errors, on stderr: stdout is the command's answer.
  config = { ...config, LOG_LEVEL: process.env.LOG_LEVEL ? config.LOG_LEVEL : 'warn' };

  let release = () => {};
  if (!config.DATABASE_URL) {
    try {
      release = await lockDataDir(config.DATA_DIR);
    } catch (error) {
      if (!(error instanceof DataDirLocked)) throw error;
      err(
        `Портал работает на встроенной базе в ${config.DATA_DIR}: остановите его и повторите ` +
          'команду, или работайте на PostgreSQL (DATABASE_URL).',
      );
      return EXIT.refused;
    }
  }
  try {
    const database = await openDatabase(config);
    try {
      await database.ping();
      // The same migrations the portal applies at its start, under the same lock.
      await migrate(database);
      const app = await buildApp({ config, database, logStream: process.stderr });
      try {
        // A session ended here reaches the running portals through a mark in Redis. This process
        // lives for one command: it waits for its connection first, and refuses to end sessions
        // when Redis does not answer (a mark held back here would die with the process, and the
        // portals would trust their caches for up to a minute).
        const redis = app.deps.redis;
        if (redis && !(await isUpWithin(() => redis.isUp(), REDIS_WAIT_MS))) {
          if (REVOKING_COMMANDS.has(prepared.command.name)) {
            err(
              'REDIS_URL задан, но Redis не отвечает: сеансы не завершены. Проверьте Redis и ' +
                'повторите команду.',
            );
            return EXIT.refused;
          }
        }
        return await execute({ deps: app.deps, log: app.log, out, err }, prepared);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    err(`Ошибка: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    process.exitCode = EXIT.refused;
  },
);
