import { type ChildProcess, spawn } from 'node:child_process';

const STOP_TIMEOUT_MS = 10_000;

export type ChildServer = {
  /** SIGTERM, then SIGKILL after 10 s; resolves once it exited. */
  stop(): Promise<void>;
};

/**
 * Starts a server of the tests (the portal, the example site) as a child process and resolves
 * once `readyUrl` answers 200. Its output is kept for the failure's message, and its stderr shown
 * beside the test. A child that exits first, or does not answer within `startTimeoutMs`, is
 * stopped and the start fails with its output.
 */
export async function startChildServer(options: {
  /** How the failure names it: «The portal». */
  name: string;
  program: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  readyUrl: string;
  startTimeoutMs: number;
  /**
   * In a process group of its own, stopped as one: needed when a shell or npm stands between
   * the test and the server, which a signal to the child alone would not reach.
   */
  isGroup?: boolean;
}): Promise<ChildServer> {
  const child = spawn(options.program, options.args, {
    cwd: options.cwd,
    env: options.env,
    detached: options.isGroup ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    output.push(chunk.toString());
    // Warnings and errors of the server are worth seeing next to a failing test.
    process.stderr.write(chunk);
  });
  const stop = () => stopChild(child, options.isGroup ?? false);
  try {
    await waitUntilReady(options, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

async function waitUntilReady(
  options: { name: string; readyUrl: string; startTimeoutMs: number },
  child: ChildProcess,
  output: string[],
) {
  const deadline = Date.now() + options.startTimeoutMs;
  let hasExited = false;
  child.once('exit', () => {
    hasExited = true;
  });
  while (Date.now() < deadline) {
    if (hasExited || child.exitCode !== null) {
      throw new Error(
        `${options.name} exited during start (code ${child.exitCode}):\n${output.join('')}`,
      );
    }
    try {
      if ((await fetch(options.readyUrl)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${options.name} did not answer ${options.readyUrl} within ${options.startTimeoutMs} ms:\n${output.join('')}`,
  );
}

async function stopChild(child: ChildProcess, isGroup: boolean) {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (isGroup) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => signal('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
