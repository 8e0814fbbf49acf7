import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process.js';

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL cluster of its own (initdb into a temporary directory, its own port and
 * socket directory), so a test may stop and start it without touching the machine's shared
 * server. As root, the cluster runs as the `postgres` OS user (PostgreSQL refuses root).
 */
export interface TemporaryCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  adminUrl: string;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to the server and every backend: connections stay open and nothing answers. */
  freeze(): Promise<void>;
  /** SIGCONT: it answers again, as if nothing happened. */
  thaw(): Promise<void>;
  /** Stops it if running and deletes its directory. */
  destroy(): Promise<void>;
}

/** The newest PostgreSQL server binaries: PG_BIN_DIR, or Debian's /usr/lib/postgresql/<n>/bin. */
function postgresBinDir(): string | null {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => existsSync(path.join(root, name, 'bin', 'initdb')))
    .sort((x, y) => Number(y) - Number(x));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

export async function startTemporaryCluster(): Promise<TemporaryCluster> {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error('initdb not found: install PostgreSQL server binaries or set PG_BIN_DIR');
  const isRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-pg-'));
  if (isRoot) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const asOwner = (program: string, args: string[]) =>
    isRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args])
      : run(path.join(bin, program), args);

  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  await asOwner('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ]);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    // A test cluster: durability is not the point, speed is.
    '-c fsync=off',
    '-c full_page_writes=off',
  ].join(' ');
  const start = async () => {
    await asOwner('pg_ctl', [
      '-D',
      dataDir,
      '-o',
      options,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-t',
      '30',
      'start',
    ]);
  };
  let running = false;
  const stop = async () => {
    await asOwner('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
    running = false;
  };
  // The postmaster's pid is the first line of postmaster.pid; backends are its children.
  const signalAll = async (signal: 'STOP' | 'CONT') => {
    const pid = readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]!.trim();
    if (signal === 'STOP') await run('kill', [`-${signal}`, pid]);
    await run('pkill', [`-${signal}`, '-P', pid]).catch(() => {});
    if (signal === 'CONT') await run('kill', [`-${signal}`, pid]);
  };
  await start();
  running = true;
  // A worker that dies must not leave a PostgreSQL server behind.
  const onExit = () => {
    if (!running) return;
    const args = ['-D', dataDir, '-m', 'immediate', 'stop'];
    const program = path.join(bin, 'pg_ctl');
    try {
      if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', program, ...args]);
      else execFileSync(program, args);
    } catch {}
  };
  process.once('exit', onExit);

  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    async start() {
      await start();
      running = true;
    },
    freeze: () => signalAll('STOP'),
    thaw: () => signalAll('CONT'),
    async destroy() {
      process.off('exit', onExit);
      await signalAll('CONT').catch(() => {});
      if (running) await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
