/**
 * One embedded database, one process: a second portal on the same DATA_DIR refuses to start with
 * one line; a lock left by a killed process does not block the next start; a database directory
 * that does not open says so in one line.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../support/fixtures.js';
import { call, randomClientIp } from '../support/system/http.js';
import { API } from '../support/system/portal.js';
import { startServer } from '../support/system/server-process.js';

const dirs: string[] = [];
function dataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-one-dir-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts a server that is expected to refuse; answers what it printed. */
async function refusedStart(env: Record<string, string>): Promise<string[]> {
  const error: Error = await startServer(env).then(
    () => {
      throw new Error('the server started');
    },
    (refused) => refused,
  );
  const printed = error.message.split('--- server output ---\n')[1] ?? '';
  return printed.trim().split('\n');
}

const register = (url: string, name: string) =>
  call(url, 'POST', `${API}/register`, {
    body: {
      email: `${name}@example.com`,
      username: name,
      password: DEFAULT_PASSWORD,
      firstName: 'Ева',
      lastName: 'Тест',
    },
    ip: randomClientIp(),
  });

describe('the embedded database belongs to one process', () => {
  it('refuses a second start on the same DATA_DIR with one line naming the holder', async () => {
    const dir = dataDir();
    const first = await startServer({ DATA_DIR: dir });
    const lines = await refusedStart({ DATA_DIR: dir });
    expect(lines).toEqual([
      `Папка данных ${dir} уже занята другим процессом портала (PID ${first.pid}). ` +
        'Остановите его или задайте другой DATA_DIR.',
    ]);
    // The first one is untouched and still serves.
    expect((await register(first.url, 'still_here')).status).toBe(200);
    await first.stop();
    expect(existsSync(path.join(dir, 'portal.lock'))).toBe(false);
  }, 240_000);

  it('starts over a lock left by a killed process, with the data it had written', async () => {
    const dir = dataDir();
    const first = await startServer({ DATA_DIR: dir });
    expect((await register(first.url, 'before_kill')).status).toBe(200);
    await first.kill();
    expect(existsSync(path.join(dir, 'portal.lock'))).toBe(true);

    const second = await startServer({ DATA_DIR: dir });
    // The account registered before the kill is still there: registering it again is a resend.
    const again = await register(second.url, 'before_kill');
    expect(again.status).toBe(429);
    await second.stop();
  }, 240_000);

  it('says in one line that a database directory does not open', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'pgdata'));
    writeFileSync(path.join(dir, 'pgdata', 'PG_VERSION'), 'not a database\n');
    const lines = await refusedStart({ DATA_DIR: dir });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^База данных недоступна \(.+\): .{1,201}$/);
  }, 120_000);
});
