import { type ChildProcess, spawn } from 'node:child_process';
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

/** Starts a TypeScript entry point in its own process and waits until `url` answers. */
export async function startProcess(entry: string, env: Record<string, string>, readyUrl: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: SERVER_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode}`);
    try {
      if ((await fetch(readyUrl)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${entry} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
