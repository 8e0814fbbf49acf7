import { type ChildProcess, spawn } from 'node:child_process';
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

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts the real entry point, answers what it printed up to «Портал запущен», then stops it. */
function startAndListen(env: Record<string, string>) {
  return new Promise<string[]>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: SERVER_ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ...env },
    });
    running.add(child);
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('Портал запущен')) {
        child.kill('SIGTERM');
        resolve(stdout.trim().split('\n'));
      }
    });
    child.on('exit', (code) => {
      running.delete(child);
      reject(new Error(`exited with ${code} before listening:\n${stdout}`));
    });
  });
}

describe('start without a payment terminal', () => {
  it('PAYMENT_PROVIDER=tbank without its key and password stops with one line', async () => {
    const { code, stderr } = await start({ PAYMENT_PROVIDER: 'tbank' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Неверная конфигурация: TBANK_TERMINAL_KEY: нужен для PAYMENT_PROVIDER=tbank; ' +
        'TBANK_PASSWORD: нужен вместе с TBANK_TERMINAL_KEY',
    ]);
  });

  it('a public portal starts with top-ups off and says in one line what to set', async () => {
    const lines = await startAndListen({ PUBLIC_URL: 'https://lk.example.com', LOG_LEVEL: 'warn' });
    const advice = lines.filter((line) => line.includes('TBANK_TERMINAL_KEY'));
    expect(advice).toHaveLength(1);
    // The start line names the runtime the portal runs on: the project's Node.js 24.
    expect(lines.find((line) => line.startsWith('Портал запущен'))).toMatch(
      /; Node\.js 24\.\d+\.\d+$/,
    );
    expect(JSON.parse(advice[0]!)).toMatchObject({
      level: 40,
      msg:
        'top-ups are off, no payment terminal: set TBANK_TERMINAL_KEY and TBANK_PASSWORD, ' +
        'or PAYMENT_PROVIDER=sandbox for a staging where nothing is really paid',
    });
  }, 120_000);
});
