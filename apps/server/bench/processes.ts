import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { SERVER_ROOT } from '../src/paths.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used so far, user and system (and of them system, the kernel's
 * work for it: the socket's reads and writes, mostly), all its threads (Linux: utime and
 * stime of /proc/<pid>/stat, in clock ticks of 10 ms; over a run of seconds that is exact enough).
 */
export function cpuSeconds(pid: number): { total: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const system = Number(fields[12]) / TICKS_PER_SECOND;
  return { total: Number(fields[11]) / TICKS_PER_SECOND + system, system };
}

/**
 * CPU seconds of every live thread of a process so far, in nanoseconds (Linux: the first field of
 * /proc/<pid>/task/<tid>/schedstat, the time each thread ran): fine enough to split a sign-in
 * into its requests, where clock ticks of 10 ms are not. A thread that ended is not counted;
 * Node's threads (the main one, libuv's pool, the garbage collector's helpers) live as long as it.
 */
export function cpuNanoseconds(pid: number): number {
  let total = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return total;
}

export interface StartedProcess {
  pid: number;
  /** Milliseconds from the spawn to the first answer of `readyUrl` (polled every 20 ms). */
  readyMs: number;
  stop(): Promise<void>;
}

const POLL_EVERY_MS = 20;
/** A portal's first start on the scale scenarios' large database, on a busy machine, included. */
const START_DEADLINE_MS = 120_000;

/**
 * Starts `node <args>` in apps/server and waits until `readyUrl` answers. `stdout` is a file
 * descriptor the process writes its output (its log lines) to; by default it is discarded.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string | undefined>,
  readyUrl: string,
  stdout: number | 'ignore' = 'ignore',
): Promise<StartedProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: SERVER_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {}
    if (performance.now() - started > START_DEADLINE_MS)
      throw new Error(`${args.join(' ')} did not start`);
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
  return {
    pid: child.pid!,
    readyMs: performance.now() - started,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
