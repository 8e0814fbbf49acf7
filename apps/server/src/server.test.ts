import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_ROOT } from './paths.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts the real entry point and collects what it prints until it exits. */
function start(env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: SERVER_ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('start with bad configuration', () => {
  it('stops with one clear line for a non-numeric PORT', async () => {
    const { code, stderr } = await start({ PORT: 'abc' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Неверная конфигурация: PORT: ожидается номер порта от 0 до 65535 (сейчас «abc»)',
    ]);
  });

  it('stops with one clear line for an unreachable DATABASE_URL', async () => {
    const { code, stderr } = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(code).toBe(1);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^База данных недоступна \(DATABASE_URL\): .*ECONNREFUSED/);
  });
});
