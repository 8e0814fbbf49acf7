/**
 * Backup and restore, the whole round trip: a running portal with an account (two-factor on), a
 * paid top-up and an avatar is backed up while it runs; the copy is restored into a fresh place;
 * a portal started there signs the account in with its authenticator and shows the same balance
 * and avatar. Once on the embedded database (backed up through the running portal) and once on
 * PostgreSQL (pg_dump).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../src/modules/two-factor/totp.js';
import { SERVER_ROOT } from '../../src/paths.js';
import { withDatabaseName } from '../support/database-url.js';
import { DEFAULT_PASSWORD } from '../support/fixtures.js';
import { pngImage } from '../support/images.js';
import { multipartBody } from '../support/multipart-body.js';
import { POSTGRES_ADMIN_URL, SYSTEM_SECRET_KEY } from '../support/services.js';
import { call, randomClientIp } from '../support/system/http.js';
import { API, TOP_UP } from '../support/system/portal.js';
import {
  adminQuery,
  createScratchDatabase,
  type ScratchDatabase,
} from '../support/system/scratch-database.js';
import { startServer } from '../support/system/server-process.js';

const REPOSITORY_ROOT = path.resolve(SERVER_ROOT, '../..');
const temporary: string[] = [];
const scratches: ScratchDatabase[] = [];
function freshDir(name: string) {
  const dir = mkdtempSync(path.join(tmpdir(), `portal-${name}-`));
  temporary.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  await Promise.all(scratches.map((scratch) => scratch.drop().catch(() => {})));
});

/** `npm run backup|restore -- <folder>` with the portal's own settings; answers its exit and output. */
function runCommand(command: 'backup' | 'restore', folder: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', command, '--', folder], {
      cwd: REPOSITORY_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

interface Account {
  userName: string;
  secret: string;
}

/** Registration, the mailed code, the authenticator, a paid top-up of 150 ₽ and an avatar. */
async function makeAccount(url: string): Promise<Account & { avatarUrl: string }> {
  const ip = randomClientIp();
  const userName = `keeper_${Math.floor(Math.random() * 1e6)}`;
  const email = `${userName}@example.com`;
  const registered = await call(url, 'POST', `${API}/register`, {
    body: {
      email,
      username: userName,
      password: DEFAULT_PASSWORD,
      firstName: 'Ева',
      lastName: 'Тест',
    },
    ip,
  });
  expect(registered.status).toBe(200);
  const letters = await call(url, 'GET', `/dev/mail/letters?to=${encodeURIComponent(email)}`);
  const verified = await call(url, 'POST', `${API}/verify-registration`, {
    body: { email, code: letters.body[0].code },
    ip,
  });
  expect(verified.status).toBe(200);
  const token = verified.body.token as string;

  const proof = { token, ip, body: { password: DEFAULT_PASSWORD } };
  expect((await call(url, 'POST', `${API}/proof`, proof)).status).toBe(200);
  const enabled = await call(url, 'POST', `${API}/2fa/enable`, { token, ip });
  expect(enabled.status).toBe(200);
  const secret = enabled.body.secret as string;
  const confirmed = await call(url, 'POST', `${API}/2fa/verify`, {
    token,
    ip,
    body: { code: totpCode(secret, new Date()) },
  });
  expect(confirmed.status).toBe(200);

  const topUp = await call(url, 'POST', TOP_UP, { token, ip, body: { amount: 150 } });
  expect(topUp.status).toBe(200);
  await payInSandbox(topUp.body.data.paymentUrl);

  const upload = multipartBody([
    { filename: 'me.png', contentType: 'image/png', body: await pngImage(40, 40) },
  ]);
  const uploaded = await fetch(`${url}/upload`, {
    method: 'POST',
    headers: { ...upload.headers, authorization: `Bearer ${token}` },
    body: upload.payload,
  });
  expect(uploaded.status).toBe(200);
  const avatarUrl = ((await uploaded.json()) as { data: string }).data;
  const saved = await call(url, 'PUT', `${API}/update-avatar`, {
    token,
    ip,
    body: { avatarUrl },
  });
  expect(saved.status).toBe(200);
  return { userName, secret, avatarUrl };
}

/** «Оплатить» on the sandbox checkout page, as a person would press it. */
async function payInSandbox(paymentUrl: string) {
  const html = await (await fetch(paymentUrl)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No checkout form in:\n${html}`);
  const paid = await fetch(new URL(action, paymentUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay' }),
    redirect: 'manual',
  });
  expect(paid.status).toBe(303);
}

/** Signs in with the authenticator on a restored portal; answers what the account shows. */
async function signInAndLook(url: string, account: Account) {
  const ip = randomClientIp();
  const login = (twoFactorCode?: string) =>
    call(url, 'POST', `${API}/login`, {
      body: { usernameOrEmail: account.userName, password: DEFAULT_PASSWORD, twoFactorCode },
      ip,
    });
  expect((await login()).body).toEqual({ requiresTwoFactor: true });
  // The step used at enrolment is spent: take the next one.
  const signedIn = await login(totpCode(account.secret, new Date(Date.now() + 30_000)));
  expect(signedIn.status).toBe(200);
  const user = await call(url, 'POST', `${API}/user`, { token: signedIn.body.token, ip });
  const avatar = await fetch(user.body.avatarUrl);
  return {
    user: user.body,
    avatarStatus: avatar.status,
    avatarBytes: (await avatar.arrayBuffer()).byteLength,
  };
}

describe('npm run backup / npm run restore', () => {
  it('round-trips an embedded portal backed up while it runs', async () => {
    const original = freshDir('data');
    // No SECRET_KEY: the portal keeps the one it generated in DATA_DIR, and the copy must carry it.
    const server = await startServer({ DATA_DIR: original, SECRET_KEY: '' });
    const account = await makeAccount(server.url);

    const copy = path.join(freshDir('copy'), 'backup');
    const env = { DATA_DIR: original, PORT: String(server.port) };
    const made = await runCommand('backup', copy, env);
    expect(made.code, made.output).toBe(0);
    expect(JSON.parse(readFileSync(path.join(copy, 'backup.json'), 'utf8'))).toMatchObject({
      database: 'embedded',
      secretKey: 'file',
      uploads: 'folder',
    });
    await server.stop();

    const restoredDir = freshDir('restored');
    const restored = await runCommand('restore', copy, { DATA_DIR: restoredDir });
    expect(restored.code, restored.output).toBe(0);
    // A second restore into the same place refuses, and changes nothing.
    const again = await runCommand('restore', copy, { DATA_DIR: restoredDir });
    expect(again.code).toBe(1);

    // On the old address, where the avatar's URL points.
    const revived = await startServer(
      { DATA_DIR: restoredDir, SECRET_KEY: '' },
      { port: server.port },
    );
    const seen = await signInAndLook(revived.url, account);
    expect(seen.user.balance).toBe(150);
    expect(seen.user.isTwoFactorEnabled).toBe(true);
    expect(seen.user.avatarUrl).toBe(account.avatarUrl);
    expect(seen.avatarStatus).toBe(200);
    expect(seen.avatarBytes).toBeGreaterThan(0);
    await revived.stop();
  }, 300_000);

  it('round-trips a portal on PostgreSQL', async () => {
    const scratch = await createScratchDatabase();
    scratches.push(scratch);
    const original = freshDir('data');
    const env = { DATABASE_URL: scratch.url, DATA_DIR: original, SECRET_KEY: SYSTEM_SECRET_KEY };
    const server = await startServer(env);
    const account = await makeAccount(server.url);
    const copy = path.join(freshDir('copy'), 'backup');
    const made = await runCommand('backup', copy, env);
    expect(made.code, made.output).toBe(0);
    expect(made.output).toContain('SECRET_KEY');
    await server.stop();

    // An empty database of its own, as an operator would create for the restore.
    const name = `portal_restored_${Math.floor(Math.random() * 1e9)}`;
    await adminQuery(POSTGRES_ADMIN_URL, `CREATE DATABASE ${name}`);
    const restoredUrl = withDatabaseName(POSTGRES_ADMIN_URL, name);
    scratches.push({
      drop: () => adminQuery(POSTGRES_ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    } as ScratchDatabase);
    const restoredEnv = {
      DATABASE_URL: restoredUrl,
      DATA_DIR: freshDir('restored'),
      SECRET_KEY: SYSTEM_SECRET_KEY,
    };
    const restored = await runCommand('restore', copy, restoredEnv);
    expect(restored.code, restored.output).toBe(0);
    // Not into a database that has tables.
    expect((await runCommand('restore', copy, restoredEnv)).code).toBe(1);

    const revived = await startServer(restoredEnv, { port: server.port });
    const seen = await signInAndLook(revived.url, account);
    expect(seen.user.balance).toBe(150);
    expect(seen.user.avatarUrl).toBe(account.avatarUrl);
    expect(seen.avatarStatus).toBe(200);
    await revived.stop();
  }, 300_000);
});
