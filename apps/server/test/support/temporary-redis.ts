import { type ChildProcess, spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './system/server-process.js';
import { waitFor } from './wait-for.js';

/**
 * A Redis server of its own (`redis-server` on a free loopback port, nothing written to disk), so
 * a test may stop or freeze it without touching the machine's shared Redis.
 */
export interface TemporaryRedis {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  /** SIGKILL: connections drop at once, as in a crash. Everything it held is gone. */
  stop(): Promise<void>;
  /** A new, empty server on the same port; resolves when it answers PING. */
  start(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT: it answers again, as if nothing happened. */
  thaw(): void;
  /** Thawed, and started again if stopped: for the clean-up after a test that failed midway. */
  ensureRunning(): Promise<void>;
  /** A connection of the test's own, for looking at what the servers wrote. */
  client(): Redis;
  /** Stops it (thawed first) and closes the test's connection. */
  destroy(): Promise<void>;
}

export async function startTemporaryRedis(): Promise<TemporaryRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let inspector: Redis | null = null;

  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    child = started;
    started.once('exit', () => {
      if (child === started) child = null;
    });
    await waitFor(`redis-server on port ${port} to answer`, async () => {
      if (started.exitCode !== null)
        throw new Error(`redis-server exited with ${started.exitCode}`);
      const probe = new Redis(url, {
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      probe.on('error', () => {});
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } finally {
        probe.disconnect();
      }
    });
  };

  const stop = async () => {
    const running = child;
    if (!running) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };

  // A worker that dies must not leave a Redis server behind.
  const onExit = () => child?.kill('SIGKILL');
  process.once('exit', onExit);
  await start();

  return {
    url,
    stop,
    start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
    async ensureRunning() {
      child?.kill('SIGCONT');
      if (!child) await start();
    },
    client() {
      if (!inspector) {
        inspector = new Redis(url, { maxRetriesPerRequest: 1 });
        inspector.on('error', () => {});
      }
      return inspector;
    },
    async destroy() {
      process.off('exit', onExit);
      child?.kill('SIGCONT');
      inspector?.disconnect();
      await stop();
    },
  };
}
