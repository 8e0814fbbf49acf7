/**
 * The answer to a logout means the session is refused everywhere: a request sent to another
 * process right after that answer arrives is refused, every time, although that process had the
 * session cached a moment before.
 */
import { expect, it } from 'vitest';
import { generateToken, hashToken } from '../../src/modules/auth/sessions.js';
import { call } from '../support/system/http.js';
import { API, createPortalUser } from '../support/system/portal.js';
import type { ServerProcess } from '../support/system/server-process.js';
import { setupTwoProcesses } from '../support/system/two-processes.js';

const ROUNDS = 200;

const portal = setupTwoProcesses();

/** Live sessions written straight to the database (a sign-in each would cost an argon2 hash). */
async function createSessions(userId: string, count: number): Promise<string[]> {
  const tokens = Array.from({ length: count }, generateToken);
  await portal.scratch.query(
    `INSERT INTO sessions (user_id, token_hash, user_agent, ip_address, created_at,
       last_activity_at, expires_at)
     SELECT $1, hash, 'test', '', now(), now(), now() + interval '1 day' FROM unnest($2::text[]) hash`,
    [userId, tokens.map(hashToken)],
  );
  return tokens;
}

const currentUser = (server: ServerProcess, token: string) =>
  call(server.url, 'POST', `${API}/user`, { token });

it(`refuses on B the request right after a logout answered by A, in ${ROUNDS} rounds of ${ROUNDS}`, async () => {
  const user = await createPortalUser(portal.scratch);
  const [control, ...tokens] = await createSessions(user.id, ROUNDS + 1);
  // Control: B answers from its cache (a revocation that tells nobody is not seen), so what
  // follows is about the order of the news, not a database read on every request.
  expect((await currentUser(portal.b, control!)).status).toBe(200);
  await portal.scratch.query('UPDATE sessions SET revoked_at = now() WHERE token_hash = $1', [
    hashToken(control!),
  ]);
  expect((await currentUser(portal.b, control!)).status).toBe(200);

  const acceptedAfterLogout: number[] = [];
  for (const [round, token] of tokens.entries()) {
    expect((await currentUser(portal.b, token)).status).toBe(200); // B has it cached now
    expect((await call(portal.a.url, 'POST', `${API}/logout`, { token })).status).toBe(200);
    if ((await currentUser(portal.b, token)).status !== 401) acceptedAfterLogout.push(round);
  }
  expect(acceptedAfterLogout).toEqual([]);
});
