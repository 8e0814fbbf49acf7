import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type ChildServer, startChildServer } from './child-server';
import { repoRoot, webDistDir } from './paths';

export type Portal = {
  /** Where the portal answers, e.g. http://127.0.0.1:41234 (no trailing slash). */
  baseUrl: string;
  /**
   * `npm run admin -- …args` on this portal's data (e.g. naming the first admin): on the embedded
   * database the tool refuses while a portal runs on it, so the portal is stopped, the command
   * run, and the portal started again on the same data and port. Answers the command's output;
   * throws when it exits with a code other than 0.
   */
  admin(args: string[]): Promise<string>;
  stop(): Promise<void>;
};

// A start on the embedded database took over a minute once while the machine ran several
// test processes at once; the suite's hooks wait 120 s (vitest.e2e.config.ts), so may this.
const START_TIMEOUT_MS = 110_000;

export type PortalOptions = {
  /**
   * The host name the browser uses (and PUBLIC_URL names); the server listens on 127.0.0.1
   * either way. Passkeys need 'localhost': WebAuthn wants a secure context (Chromium counts
   * http://localhost as one) and a relying party id that is a domain, never an IP address.
   */
  host?: 'localhost';
};

/**
 * Starts the real server as a child process on a free port, with a fresh database of its own:
 * embedded PGlite in a temporary directory, or, when TEST_DATABASE_URL is set, a new PostgreSQL
 * database created from it and dropped on stop. Resolves once GET /health answers 200.
 */
export async function startPortal(
  env: Record<string, string> = {},
  options: PortalOptions = {},
): Promise<Portal> {
  const port = await freePort();
  const baseUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const database = process.env.TEST_DATABASE_URL
    ? await createDatabase(process.env.TEST_DATABASE_URL)
    : null;

  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: baseUrl,
    DATA_DIR: dataDir,
    // WEB_DIST_DIR: a build of one's own can be tested while others rebuild apps/web/dist.
    WEB_DIST_DIR: process.env.WEB_DIST_DIR || webDistDir,
    LOG_LEVEL: 'warn',
    ...env,
  };
  // Never let an outer DATABASE_URL point the test server at a real database.
  delete childEnv.DATABASE_URL;
  if (database) childEnv.DATABASE_URL = database.url;

  const removeData = async () => {
    if (database) await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const start = () =>
    startChildServer({
      name: 'The portal',
      program: process.execPath,
      args: ['--import', 'tsx', 'apps/server/src/server.ts'],
      cwd: repoRoot,
      env: childEnv,
      readyUrl: `http://127.0.0.1:${port}/health`,
      startTimeoutMs: START_TIMEOUT_MS,
    });
  let server: ChildServer;
  try {
    server = await start();
  } catch (error) {
    await removeData();
    throw error;
  }
  const cleanUp = async () => {
    await server.stop();
    await removeData();
  };

  let stopped: Promise<void> | undefined;
  return {
    baseUrl,
    async admin(args) {
      // PostgreSQL is shared by the portal and the tool; only the embedded database is one process's.
      if (!database) await server.stop();
      const result = await runAdmin(args, childEnv);
      if (!database) server = await start();
      if (result.code !== 0) {
        throw new Error(
          `npm run admin -- ${args.join(' ')} exited ${result.code}:\n${result.text}`,
        );
      }
      return result.text;
    },
    stop: () => {
      stopped ??= cleanUp();
      return stopped;
    },
  };
}

/** `apps/server/src/admin.ts` with the portal's environment: its exit code and what it printed. */
function runAdmin(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; text: string }> {
  return new Promise((resolve, reject) => {
    const tool = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/admin.ts', ...args], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const text: string[] = [];
    tool.stdout?.on('data', (chunk: Buffer) => text.push(chunk.toString()));
    tool.stderr?.on('data', (chunk: Buffer) => text.push(chunk.toString()));
    tool.on('error', reject);
    tool.on('exit', (code) => resolve({ code: code ?? 1, text: text.join('') }));
  });
}

/**
 * One portal for the whole test file: started before the first test, stopped after the last.
 * `env` may be a function, read when the portal starts (after earlier `beforeAll` hooks ran).
 */
export function setupPortal(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: PortalOptions = {},
): () => Portal {
  let portal: Portal | undefined;
  beforeAll(async () => {
    portal = await startPortal(typeof env === 'function' ? env() : env, options);
  });
  afterAll(async () => {
    await portal?.stop();
  });
  return () => {
    if (!portal)
      throw new Error('setupPortal(): the portal is not started yet (use it inside a test)');
    return portal;
  };
}

/** A port nothing listens on now, for a child process to take. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function createDatabase(adminUrl: string) {
  const name = `e2e_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

async function withAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}
