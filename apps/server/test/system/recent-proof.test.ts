/**
 * A fresh proof of the owner (modules/auth/recent-proof.ts) across two server processes sharing one
 * PostgreSQL database and one Redis: a proof given through one process lets the other change a
 * factor at once, though it remembers the session; wrong answers split between the two add up to
 * one lock.
 */
import { LOGIN_FAILURES_BEFORE_DELAY } from '@portal/contracts/constants';
import { PROOF_REQUIRED } from '@portal/contracts/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../fixtures.js';
import { call, randomClientIp } from './support/http.js';
import { API, createPortalUser, login } from './support/portal.js';
import { createScratchDatabase, type ScratchDatabase } from './support/scratch-database.js';
import { type ServerProcess, startServer } from './support/server-process.js';
import { REDIS_URL } from './support/services.js';

let scratch: ScratchDatabase;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  scratch = await createScratchDatabase();
  const env = { DATABASE_URL: scratch.url, REDIS_URL };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await scratch?.drop();
});

const prove = (server: ServerProcess, token: string, password: string, ip: string) =>
  call(server.url, 'POST', `${API}/proof`, { token, body: { password }, ip });

const enableAuthenticator = (server: ServerProcess, token: string) =>
  call(server.url, 'POST', `${API}/2fa/enable`, { token });

describe('a proof given through one process', () => {
  it('is honoured by the other at once, though that one had the session in memory', async () => {
    const user = await createPortalUser(scratch);
    const ip = randomClientIp();
    const token = await login(a.url, user, ip);

    // B reads the session (and remembers it), and refuses the change: nothing proved yet.
    expect((await call(b.url, 'POST', `${API}/user`, { token })).status).toBe(200);
    const refused = await enableAuthenticator(b, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: PROOF_REQUIRED, reason: 'proof_required' });

    expect((await prove(a, token, DEFAULT_PASSWORD, ip)).status).toBe(200);
    const enabled = await enableAuthenticator(b, token);
    expect(enabled.status).toBe(200);
    expect(enabled.body.secret).toEqual(expect.any(String));
  });
});

describe('wrong answers to the proof', () => {
  it('split between the two processes, lock the account on both', async () => {
    const user = await createPortalUser(scratch);
    const ip = randomClientIp();
    const token = await login(a.url, user, ip);
    for (let attempt = 0; attempt < LOGIN_FAILURES_BEFORE_DELAY; attempt++) {
      const answer = await prove(attempt % 2 ? b : a, token, 'Wrong-Pass1', ip);
      expect(answer.status, `attempt ${attempt + 1}`).toBe(400);
    }
    for (const server of [a, b]) {
      const locked = await prove(server, token, DEFAULT_PASSWORD, ip);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const [session] = await scratch.query<{ proven_at: Date | null }>(
      'SELECT proven_at FROM sessions WHERE user_id = $1',
      [user.id],
    );
    expect(session?.proven_at).toBeNull();
  });
});
