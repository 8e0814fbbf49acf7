import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { ManualClock } from '../../src/adapters/clock.js';
import { type BuildAppOptions, buildApp } from '../../src/app.js';
import { type Config, testConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ManualClock;
  config: Config;
}

/**
 * The real app on its own fresh database, with a clock the test moves. Closed after the file.
 * Pass `config` overrides or other adapters through `options`.
 */
export async function createTestApp(
  options: {
    config?: Partial<Config>;
    /** Hooks the test adds before the app is ready (they then see every route). */
    beforeReady?: (app: FastifyInstance) => void;
  } & Partial<Omit<BuildAppOptions, 'config' | 'database'>> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = options.clock instanceof ManualClock ? options.clock : new ManualClock();
  const config = testConfig(options.config);
  const app = await buildApp({ ...options, config, database, clock });
  // Over a network a request arrives after the change notices of earlier commits (user-reads.ts);
  // `app.inject` skips the network, so each request waits for them here.
  app.addHook('onRequest', async () => {
    await app.deps.userReads.settled();
  });
  options.beforeReady?.(app);
  await app.ready();
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  return { app, database, clock, config };
}
