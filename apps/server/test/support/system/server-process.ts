import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach } from 'vitest';
import { SERVER_ROOT } from '../../../src/paths.js';
import { SYSTEM_SECRET_KEY } from '../services.js';
import { waitFor } from '../wait-for.js';

/**
 * A real portal process: `node --import tsx src/server.ts` with its own environment, on its own
 * loopback port. Every process a test file starts is killed after the file, whatever happened.
 */
export interface ServerProcess {
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly pid: number;
  hasExited(): boolean;
  /** Its exit code once it has exited (null while it runs, or when a signal ended it). */
  exitCode(): number | null;
  /** Stops reading its output, as a log reader that has gone away would. */
  closeOutput(): void;
  /** Sends a signal without waiting. */
  signal(name: NodeJS.Signals): void;
  /** Resolves when it has exited. */
  exited(): Promise<void>;
  /** What it printed (stdout and stderr): for failure messages. */
  output(): string;
  /** SIGTERM: the graceful stop. */
  stop(): Promise<void>;
  /** SIGKILL: no cleanup at all, as in a crash. */
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();
const dataDirs = new Set<string>();
const outputs = new Map<number, () => string>();

// A failed test shows what the servers printed (their warnings and errors) since it started.
beforeEach(({ onTestFailed }) => {
  const marks = new Map([...outputs].map(([port, output]) => [port, output().length]));
  onTestFailed(() => {
    for (const [port, output] of outputs) {
      const lines = output()
        .slice(marks.get(port) ?? 0)
        .split('\n')
        .filter(Boolean);
      // Only errors and crash traces: warnings (one per 503 while a database is down) bury them.
      const serious = lines.filter((line) => !/^\{"level":(10|20|30|40),/.test(line));
      if (lines.length === 0) continue;
      console.info(
        `--- server on port ${port}: ${lines.length} lines, ${lines.length - serious.length} ` +
          `of them info/warnings left out ---\n${serious.join('\n').slice(-50_000)}`,
      );
    }
  });
});

afterAll(async () => {
  await Promise.all([...running].map((child) => end(child, 'SIGKILL')));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});
// A worker that dies must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

function end(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * Starts a server and waits until it listens (it migrates first). `env` adds to or overrides the
 * defaults: loopback only, test mode, a fixed SECRET_KEY, a temporary DATA_DIR, loopback trusted
 * as a proxy (so a test chooses the client address with X-Forwarded-For), and no periodic jobs.
 */
export async function startServer(
  env: Record<string, string | undefined>,
  options: { port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-system-'));
  dataDirs.add(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      SECRET_KEY: SYSTEM_SECRET_KEY,
      TRUSTED_PROXIES: '127.0.0.1',
      PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
      SERVICE_RENEWAL_INTERVAL_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let printed = '';
  const keep = (chunk: Buffer) => {
    // Enough for a test's worth of warnings; a runaway server does not fill the memory.
    if (printed.length < 4_000_000) printed += chunk.toString();
  };
  outputs.set(port, () => printed);
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  try {
    const state = await waitFor(
      `the server on port ${port} to listen`,
      async () => {
        if (hasExited()) return 'exited';
        const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) });
        return response.ok && 'listening';
      },
      { timeoutMs: 90_000, intervalMs: 100 },
    );
    if (state === 'exited') throw new Error(`the server exited with ${child.exitCode}`);
  } catch (error) {
    await end(child, 'SIGKILL');
    throw new Error(`${(error as Error).message}\n--- server output ---\n${printed}`);
  }

  return {
    port,
    url,
    pid: child.pid!,
    hasExited,
    exitCode: () => child.exitCode,
    closeOutput() {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
    signal: (name) => child.kill(name),
    exited: () =>
      hasExited()
        ? Promise.resolve()
        : new Promise((resolve) => child.once('exit', () => resolve())),
    output: () => printed,
    stop: () => end(child, 'SIGTERM'),
    kill: () => end(child, 'SIGKILL'),
  };
}
