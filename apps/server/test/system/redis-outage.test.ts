/**
 * Redis stopped (SIGKILL) or frozen (SIGSTOP) under two portal processes that share it. Sign-in
 * keeps its normal pace, the per-address limits count per process meanwhile, every way of ending
 * a session answers 2xx and is refused on both processes, and when Redis is back the processes
 * use it again without forgetting what was revoked while it was away.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_RULES } from '../../src/modules/auth/login-throttle.js';
import { DEFAULT_PASSWORD, latestCodeTo } from '../support/fixtures.js';
import { type Answer, call, randomClientIp } from '../support/system/http.js';
import { API, createPortalUser } from '../support/system/portal.js';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { type ServerProcess, startServer } from '../support/system/server-process.js';
import { startTemporaryRedis, type TemporaryRedis } from '../support/temporary-redis.js';
import { waitFor } from '../support/wait-for.js';

/** "Does not hang", not a benchmark: a sign-in takes about 0.1 s here when Redis is fine. */
const NORMAL_TIME_MS = 1_500;
const PASSWORD = '/portal/auth/password';

let redis: TemporaryRedis;
let scratch: ScratchDatabase;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  redis = await startTemporaryRedis();
  scratch = await createScratchDatabase();
  const env = { DATABASE_URL: scratch.url, REDIS_URL: redis.url };
  [a, b] = await Promise.all([startServer(env), startServer(env)]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.destroy();
  await scratch?.drop();
});

async function timed(send: () => Promise<Answer>) {
  const startedAt = performance.now();
  const answer = await send();
  return { answer, ms: performance.now() - startedAt };
}

const currentUser = (server: ServerProcess, token: string) =>
  call(server.url, 'POST', `${API}/user`, { token });

/** The statuses both processes answer to a request with this token: [A's, B's]. */
const seenBy = async (token: string) =>
  [(await currentUser(a, token)).status, (await currentUser(b, token)).status] as const;

async function signIn(server: ServerProcess, user: { userName: string }, ip = randomClientIp()) {
  const { answer, ms } = await timed(() =>
    call(server.url, 'POST', `${API}/login`, {
      body: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
      ip,
    }),
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(ms, `sign-in through port ${server.port}`).toBeLessThan(NORMAL_TIME_MS);
  return answer.body.token as string;
}

const sessionIdOf = async (token: string) => {
  const devices = await call(a.url, 'POST', `${API}/devices`, { token });
  return (devices.body as { id: string; isCurrent: boolean }[]).find((d) => d.isCurrent)!.id;
};

/**
 * Waits until `server` answers from its session cache again, i.e. trusts Redis again: a session
 * it has read is then revoked by a bare UPDATE that tells nobody, and it still accepts it.
 */
async function waitUntilCachingAgain(server: ServerProcess) {
  const user = await createPortalUser(scratch);
  await waitFor(
    `the process on port ${server.port} to answer from its cache again`,
    async () => {
      const token = await signIn(server, user);
      if ((await currentUser(server, token)).status !== 200) return false;
      await scratch.query(
        'UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
        [user.id],
      );
      return (await currentUser(server, token)).status === 200;
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
}

const outages = [
  { kind: 'stopped', breakIt: () => redis.stop(), mendIt: () => redis.start() },
  {
    kind: 'frozen',
    breakIt: async () => redis.freeze(),
    mendIt: async () => redis.thaw(),
  },
];

describe.each(outages)('Redis $kind', ({ breakIt, mendIt }) => {
  it('sign-in keeps its pace, limits count per process, sessions end everywhere, and all resumes', async () => {
    // Before: every session below has been read (and so cached) by both processes.
    const loggingOut = await createPortalUser(scratch);
    const everywhere = await createPortalUser(scratch);
    const devices = await createPortalUser(scratch);
    const changing = await createPortalUser(scratch);
    const bystander = await createPortalUser(scratch);
    const tokens = {
      loggingOut: await signIn(a, loggingOut),
      everywhere: [await signIn(a, everywhere), await signIn(b, everywhere)],
      phone: await signIn(a, devices),
      laptop: await signIn(b, devices),
      changingHere: await signIn(a, changing),
      changingElsewhere: await signIn(b, changing),
      bystander: await signIn(b, bystander),
    };
    const laptopId = await sessionIdOf(tokens.laptop);
    for (const token of Object.values(tokens).flat())
      expect(await seenBy(token)).toEqual([200, 200]);

    await breakIt();

    // Sign-in answers in its normal time on both processes, the first try included.
    for (const server of [a, b, a, b]) await signIn(server, bystander);

    // The per-address limit still counts, in each process on its own.
    const ip = randomClientIp();
    const { limit } = LOGIN_THROTTLE_RULES.perAddress;
    for (let attempt = 0; attempt <= limit; attempt++) {
      const { answer, ms } = await timed(() =>
        call(a.url, 'POST', `${API}/login`, {
          body: { usernameOrEmail: `nobody_${attempt}`, password: 'Wrong-Pass-1' },
          ip,
        }),
      );
      expect(ms).toBeLessThan(NORMAL_TIME_MS);
      expect(answer.status, `attempt ${attempt + 1}`).toBe(attempt < limit ? 401 : 429);
    }

    // Logout through A: refused by both.
    expect((await call(a.url, 'POST', `${API}/logout`, { token: tokens.loggingOut })).status).toBe(
      200,
    );
    expect(await seenBy(tokens.loggingOut)).toEqual([401, 401]);

    // Log out everywhere, through B.
    const all = await call(b.url, 'POST', `${API}/logout-all`, { token: tokens.everywhere[0] });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    for (const token of tokens.everywhere) expect(await seenBy(token)).toEqual([401, 401]);

    // Ending another device from the list, through A.
    const ended = await call(a.url, 'DELETE', `${API}/devices/${laptopId}`, {
      token: tokens.phone,
    });
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(await seenBy(tokens.laptop)).toEqual([401, 401]);
    expect(await seenBy(tokens.phone)).toEqual([200, 200]);

    // A password change that signs out the other devices, through A.
    const token = tokens.changingHere;
    expect((await call(a.url, 'POST', `${PASSWORD}/change-code`, { token })).status).toBe(200);
    const changed = await call(a.url, 'POST', `${PASSWORD}/change`, {
      token,
      body: {
        oldPassword: DEFAULT_PASSWORD,
        newPassword: 'Another-Pass-2',
        code: await latestCodeTo(scratch, changing.email),
        logoutOtherSessions: true,
      },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await seenBy(tokens.changingElsewhere)).toEqual([401, 401]);
    expect(await seenBy(tokens.changingHere)).toEqual([200, 200]);
    expect(await seenBy(tokens.bystander)).toEqual([200, 200]);

    await mendIt();
    await waitUntilCachingAgain(a);
    await waitUntilCachingAgain(b);

    // What was revoked while Redis was away stays revoked on both, though both had it cached.
    for (const gone of [tokens.loggingOut, ...tokens.everywhere, tokens.laptop]) {
      expect(await seenBy(gone)).toEqual([401, 401]);
    }
    expect(await seenBy(tokens.changingElsewhere)).toEqual([401, 401]);
    for (const kept of [tokens.phone, tokens.changingHere, tokens.bystander]) {
      expect(await seenBy(kept)).toEqual([200, 200]);
    }

    // Revocation through Redis works again: a logout through B is refused by A at once.
    const fresh = await signIn(a, bystander);
    expect(await seenBy(fresh)).toEqual([200, 200]);
    expect((await call(b.url, 'POST', `${API}/logout`, { token: fresh })).status).toBe(200);
    expect(await seenBy(fresh)).toEqual([401, 401]);

    // And the limits count across both processes again (grant checks: cheap, 20 per address).
    const shared = randomClientIp();
    const grantCheck = (server: ServerProcess) =>
      call(server.url, 'POST', `${API}/logout-all`, {
        body: { email: 'nobody@example.com', code: '000000' },
        ip: shared,
      });
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await grantCheck(attempt % 2 ? b : a)).status, `check ${attempt + 1}`).toBe(400);
    }
    expect((await grantCheck(a)).status).toBe(429);
    expect((await grantCheck(b)).status).toBe(429);
  });
});
