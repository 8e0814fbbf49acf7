import { afterAll, beforeAll } from 'vitest';
import { REDIS_URL } from '../services.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { type ServerProcess, startServer } from './server-process.js';

/** Two portal processes that share one database and the machine's Redis, and nothing else. */
export interface TwoProcesses {
  readonly scratch: ScratchDatabase;
  readonly a: ServerProcess;
  readonly b: ServerProcess;
}

/**
 * Starts A and B on a fresh scratch database before the file's tests and stops them (and drops
 * the database) after; `extraEnv` adds settings to both (one PUBLIC_URL for the OpenID Provider). The fields are filled in `beforeAll`: read them inside tests and hooks.
 */
export function setupTwoProcesses(extraEnv: Record<string, string> = {}): TwoProcesses {
  const processes = {} as { scratch: ScratchDatabase; a: ServerProcess; b: ServerProcess };
  beforeAll(async () => {
    processes.scratch = await createScratchDatabase();
    const env = { ...extraEnv, DATABASE_URL: processes.scratch.url, REDIS_URL };
    [processes.a, processes.b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([processes.a?.stop(), processes.b?.stop()]);
    await processes.scratch?.drop();
  });
  return processes;
}
