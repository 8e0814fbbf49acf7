import fp from 'fastify-plugin';
import { type Clock, systemClock } from './adapters/clock.js';
import { createFileStorage } from './adapters/create-file-storage.js';
import { mailOutboxData } from './adapters/mail.js';
import { RedisConnection } from './adapters/redis.js';
import { RedisRevocationMarks } from './adapters/revocation-marks.js';
import type { FileStorage } from './adapters/storage.js';
import type { Config } from './config.js';
import { DataOwners } from './db/data-owners.js';
import type { Database, Db } from './db/database.js';
import { UserReadCache } from './db/user-reads.js';
import type { AppDeps } from './deps.js';
import { declarePortalOnlyAnswers, SessionStore } from './modules/auth/sessions.js';

/** The part of `app.deps` every module may use. */
export interface CoreDeps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  /** The process's Redis connection (REDIS_URL), or null; `redis.isUp()` tells if it answers. */
  redis: RedisConnection | null;
  /** Per-process memory of each account's frequent reads, dropped when the account changes. */
  userReads: UserReadCache;
  sessions: SessionStore;
  storage: FileStorage;
  /** What each module erases, keeps and purges of its tables (db/data-owners.ts). */
  dataOwners: DataOwners;
}

declare module './deps.js' {
  interface AppDeps extends CoreDeps {}
}

export interface CoreOptions {
  config: Config;
  database: Database;
  /** Tests pass a clock they move. */
  clock?: Clock | undefined;
  /** Tests pass a stand-in for S3 or a temporary directory. */
  storage?: FileStorage | undefined;
}

/**
 * What every module builds on: configuration, the database and its per-process read cache,
 * the clock, Redis and sessions, file storage. It creates `app.deps`; each module's plugin then
 * adds its own part.
 */
export const corePlugin = fp<CoreOptions>(
  async (app, options) => {
    const { config, database } = options;
    const clock = options.clock ?? systemClock;
    const userReads = new UserReadCache(database, {
      accounts: config.ACCOUNT_CACHE_ACCOUNTS,
      bytes: config.ACCOUNT_CACHE_MB * 1024 * 1024,
    });
    await userReads.start();
    app.addHook('onClose', () => userReads.stop());
    const redis = config.REDIS_URL
      ? new RedisConnection(config.REDIS_URL, {
          onDown: (error) =>
            app.log.warn(
              { err: error },
              'Redis down: limits per process, sessions from the database',
            ),
          onUp: () => app.log.info('Redis up'),
        })
      : null;
    app.addHook('onClose', () => redis?.close());
    const sessions = new SessionStore({
      db: database.db,
      clock,
      marks: redis ? new RedisRevocationMarks(redis) : undefined,
      reads: userReads,
      cacheSize: config.SESSION_CACHE_SIZE,
      supportUrl: config.SUPPORT_URL,
    });
    const dataOwners = new DataOwners();
    // First of all: the outbox's erasure finds letters by the addresses the account's codes
    // carried, so it runs before auth deletes the codes (db/data-owners.ts).
    dataOwners.register(mailOutboxData);
    const core: CoreDeps = {
      config,
      database,
      db: database.db,
      clock,
      redis,
      userReads,
      sessions,
      storage: options.storage ?? createFileStorage(config),
      dataOwners,
    };
    // The modules' parts are added by their plugins, registered after this one (app.ts).
    app.decorate('deps', core as AppDeps);
    app.decorateRequest('session', null);
    declarePortalOnlyAnswers(app);
  },
  { name: 'core' },
);
