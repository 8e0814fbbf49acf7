/**
 * One process per embedded database. PGlite has no lock of its own: two portals started on one
 * DATA_DIR both open it, split the writes between them and lose acknowledged ones. So the
 * process that opens the embedded database first writes `DATA_DIR/portal.lock` (its pid and
 * start time), and every other start refuses while that process lives.
 *
 * A lock whose process is gone (killed, the machine restarted) is taken over at once: the owner
 * is checked by pid AND process start time (Linux `/proc/<pid>/stat`), so a pid reused by an
 * unrelated process after a restart does not keep the directory locked. Two starts taking over
 * the same stale lock at once are serialised by an atomic `mkdir`.
 */
import {
  linkSync,
  mkdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export class DataDirLocked extends Error {}

interface Owner {
  pid: number;
  /** Clock ticks since boot when the process started (Linux); null elsewhere. */
  startTime: string | null;
}

/** A takeover that takes longer than this was left behind by a process that died inside it. */
const ABANDONED_TAKEOVER_MS = 10_000;

function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return owner.startTime === null || startTimeOf(owner.pid) === owner.startTime;
}

function readOwner(file: string): Owner | null {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as Owner;
    return Number.isInteger(owner.pid) ? owner : null;
  } catch {
    return null;
  }
}

/** Creates the lock file whole or not at all: written aside, then linked into place. */
function tryCreate(file: string, owner: Owner): boolean {
  const draft = `${file}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(owner));
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** Removes the lock file when it still names a dead owner; one process at a time. */
function takeOverStale(file: string): void {
  const guard = `${file}.takeover`;
  try {
    mkdirSync(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const startedAt = statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
    if (Date.now() - startedAt > ABANDONED_TAKEOVER_MS)
      rmSync(guard, { recursive: true, force: true });
    return;
  }
  try {
    const owner = readOwner(file);
    if (!owner || !isAlive(owner)) rmSync(file, { force: true });
  } finally {
    rmdirSync(guard);
  }
}

/**
 * Takes the directory for this process; answers the release. Throws `DataDirLocked` (with one
 * Russian line to print) while another live process holds it.
 */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'portal.lock');
  const me: Owner = { pid: process.pid, startTime: startTimeOf(process.pid) };
  for (let attempt = 0; attempt < 50; attempt++) {
    if (tryCreate(file, me)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const owner = readOwner(file);
        if (owner?.pid === me.pid) unlinkSync(file);
      };
    }
    const owner = readOwner(file);
    if (owner && owner.pid !== me.pid && isAlive(owner)) {
      throw new DataDirLocked(
        `Папка данных ${dataDir} уже занята другим процессом портала (PID ${owner.pid}). ` +
          'Остановите его или задайте другой DATA_DIR.',
      );
    }
    takeOverStale(file);
    await delay(20);
  }
  throw new DataDirLocked(`Не удалось занять папку данных ${dataDir}: ${file} не освобождается.`);
}
