/**
 * A fresh proof of the owner (modules/auth/recent-proof.ts) across two server processes sharing one
 * PostgreSQL database and one Redis: a proof given through one process lets the other change a
 * factor at once, though it remembers the session; wrong answers split between the two add up to
 * one lock.
 */
import { LOGIN_FAILURES_BEFORE_DELAY } from '@portal/contracts/constants';
import { PROOF_REQUIRED } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PASSWORD } from '../support/fixtures.js';
import { call, randomClientIp } from '../support/system/http.js';
import { API, createPortalUser, login } from '../support/system/portal.js';
import type { ServerProcess } from '../support/system/server-process.js';
import { setupTwoProcesses } from '../support/system/two-processes.js';

const portal = setupTwoProcesses();

const prove = (server: ServerProcess, token: string, password: string, ip: string) =>
  call(server.url, 'POST', `${API}/proof`, { token, body: { password }, ip });

const enableAuthenticator = (server: ServerProcess, token: string) =>
  call(server.url, 'POST', `${API}/2fa/enable`, { token });

describe('a proof given through one process', () => {
  it('is honoured by the other at once, though that one had the session in memory', async () => {
    const user = await createPortalUser(portal.scratch);
    const ip = randomClientIp();
    const token = await login(portal.a.url, user, ip);

    // B reads the session (and remembers it), and refuses the change: nothing proved yet.
    expect((await call(portal.b.url, 'POST', `${API}/user`, { token })).status).toBe(200);
    const refused = await enableAuthenticator(portal.b, token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: PROOF_REQUIRED, reason: 'proof_required' });

    expect((await prove(portal.a, token, DEFAULT_PASSWORD, ip)).status).toBe(200);
    const enabled = await enableAuthenticator(portal.b, token);
    expect(enabled.status).toBe(200);
    expect(enabled.body.secret).toEqual(expect.any(String));
  });
});

describe('wrong answers to the proof', () => {
  it('split between the two processes, lock the account on both', async () => {
    const user = await createPortalUser(portal.scratch);
    const ip = randomClientIp();
    const token = await login(portal.a.url, user, ip);
    for (let attempt = 0; attempt < LOGIN_FAILURES_BEFORE_DELAY; attempt++) {
      const answer = await prove(attempt % 2 ? portal.b : portal.a, token, 'Wrong-Pass1', ip);
      expect(answer.status, `attempt ${attempt + 1}`).toBe(400);
    }
    for (const server of [portal.a, portal.b]) {
      const locked = await prove(server, token, DEFAULT_PASSWORD, ip);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const [session] = await portal.scratch.query<{ proven_at: Date | null }>(
      'SELECT proven_at FROM sessions WHERE user_id = $1',
      [user.id],
    );
    expect(session?.proven_at).toBeNull();
  });
});
