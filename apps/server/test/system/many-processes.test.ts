/**
 * Many processes: two server processes share one PostgreSQL database and one Redis, and
 * nothing but their own ports. What one process does, the other honours at once.
 */
import { LOGIN_FAILURES_BEFORE_DELAY } from '@portal/contracts/constants';
import { CODE_WRONG } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE_RULES } from '../../src/modules/auth/login-throttle.js';
import { totpCode } from '../../src/modules/two-factor/totp.js';
import { otherCode } from '../support/auth-helpers.js';
import { DEFAULT_PASSWORD } from '../support/fixtures.js';
import { call, randomClientIp } from '../support/system/http.js';
import {
  API,
  createPortalUser,
  login,
  NOTIFICATION,
  signedNotification,
  startTopUp,
  walletOf,
} from '../support/system/portal.js';
import type { ServerProcess } from '../support/system/server-process.js';
import { setupTwoProcesses } from '../support/system/two-processes.js';

const portal = setupTwoProcesses();

const currentUser = (server: ServerProcess, token: string) =>
  call(server.url, 'POST', `${API}/user`, { token });

describe('a session ended through one process', () => {
  it('is refused by the other on its very next request, though it had the session cached', async () => {
    const user = await createPortalUser(portal.scratch);
    const ip = randomClientIp();
    const token = await login(portal.a.url, user, ip);
    const [session] = await portal.scratch.query<{ id: string }>(
      'SELECT id FROM sessions WHERE user_id = $1',
      [user.id],
    );

    // B reads the session once (and caches it); then it answers from its cache.
    expect((await currentUser(portal.b, token)).status).toBe(200);
    // Control: a revocation that bypasses the bus (a bare UPDATE) is not seen by B's cache. So
    // what follows proves the bus, not a database read on every request.
    const control = await login(portal.a.url, user, ip);
    expect((await currentUser(portal.b, control)).status).toBe(200);
    await portal.scratch.query(
      `UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND id <> $2`,
      [user.id, session!.id],
    );
    expect((await currentUser(portal.b, control)).status).toBe(200);

    const logout = await call(portal.a.url, 'POST', `${API}/logout`, { token });
    expect(logout.status).toBe(200);
    const refused = await currentUser(portal.b, token);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Недействительный токен');
    expect((await currentUser(portal.a, token)).status).toBe(401);
  });

  it('ended from the devices list of one process is refused by the other at once', async () => {
    const user = await createPortalUser(portal.scratch);
    const ip = randomClientIp();
    const phone = await login(portal.a.url, user, ip);
    const laptop = await login(portal.b.url, user, ip);
    expect((await currentUser(portal.b, laptop)).status).toBe(200);

    const devices = await call(portal.a.url, 'POST', `${API}/devices`, { token: phone });
    expect(devices.status).toBe(200);
    const other = (devices.body as { id: string; isCurrent: boolean }[]).find(
      (device) => !device.isCurrent,
    );
    expect(other).toBeDefined();
    const ended = await call(portal.a.url, 'DELETE', `${API}/devices/${other!.id}`, {
      token: phone,
    });
    expect(ended.status).toBe(200);

    expect((await currentUser(portal.b, laptop)).status).toBe(401);
    expect((await currentUser(portal.a, laptop)).status).toBe(401);
    // The session that ended the other one lives on, on both.
    expect((await currentUser(portal.b, phone)).status).toBe(200);
    expect((await currentUser(portal.a, phone)).status).toBe(200);
  });

  it('ends everywhere with "log out everywhere else" through the other process', async () => {
    const user = await createPortalUser(portal.scratch);
    const ip = randomClientIp();
    const tokens = [await login(portal.a.url, user, ip), await login(portal.a.url, user, ip)];
    const keeper = await login(portal.b.url, user, ip);
    for (const token of tokens) expect((await currentUser(portal.a, token)).status).toBe(200);

    const answer = await call(portal.b.url, 'POST', `${API}/logout-all-except-current`, {
      token: keeper,
    });
    expect(answer.status).toBe(200);
    for (const token of tokens) expect((await currentUser(portal.a, token)).status).toBe(401);
    expect((await currentUser(portal.a, keeper)).status).toBe(200);
  });
});

const failLogin = (server: ServerProcess, usernameOrEmail: string, ip: string) =>
  call(server.url, 'POST', `${API}/login`, {
    body: { usernameOrEmail, password: 'Wrong-Pass-1' },
    ip,
  });

describe('brute-force protection counts across processes', () => {
  it('locks the account after failures alternating between the two processes', async () => {
    const user = await createPortalUser(portal.scratch);
    const ip = randomClientIp();
    // Half the failures land on each process: neither alone reaches the limit.
    for (let attempt = 0; attempt < LOGIN_FAILURES_BEFORE_DELAY; attempt++) {
      const answer = await failLogin(attempt % 2 ? portal.b : portal.a, user.userName, ip);
      expect(answer.status).toBe(401);
    }
    const [throttle] = await portal.scratch.query<{ failures: number; locked_until: Date | null }>(
      'SELECT failures, locked_until FROM login_throttles WHERE subject = $1',
      [`user:${user.id}`],
    );
    expect(throttle?.failures).toBe(LOGIN_FAILURES_BEFORE_DELAY);
    expect(throttle?.locked_until).not.toBeNull();

    // Locked: the right password is refused with the wait on either process.
    for (const server of [portal.a, portal.b]) {
      const answer = await call(server.url, 'POST', `${API}/login`, {
        body: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
        ip,
      });
      expect(answer.status).toBe(429);
      expect(answer.body.reason).toBe('login_paused');
    }
  });

  it('answers 429 to an address whose failures, split between the processes, reach the limit', async () => {
    const ip = randomClientIp();
    const { limit } = LOGIN_THROTTLE_RULES.perAddress;
    // Unknown names, a new one each time: only the per-address counter (in Redis) adds up.
    for (let attempt = 0; attempt < limit; attempt++) {
      const answer = await failLogin(
        attempt % 2 ? portal.b : portal.a,
        `nobody_${attempt}_${ip}`,
        ip,
      );
      expect(answer.status, `attempt ${attempt + 1}`).toBe(401);
    }
    for (const server of [portal.a, portal.b]) {
      const refused = await failLogin(server, 'nobody_more', ip);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another address is not affected.
    expect((await failLogin(portal.a, 'nobody_else', randomClientIp())).status).toBe(401);
  });
});

describe('bursts of 100 parallel sign-ins split between the two processes', () => {
  const hundred = <T>(make: (i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: 100 }, (_, i) => make(i)));

  it('check at most 10 passwords of one account', async () => {
    const user = await createPortalUser(portal.scratch);
    const answers = await hundred((i) =>
      failLogin(i % 2 ? portal.b : portal.a, user.userName, randomClientIp()),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(
      LOGIN_FAILURES_BEFORE_DELAY,
    );
    expect(answers.filter((answer) => answer.body.reason === 'login_paused')).toHaveLength(
      100 - LOGIN_FAILURES_BEFORE_DELAY,
    );
    // Attempts are counted before the password is looked at, and refused ones are not counted:
    // the count is the number of passwords checked.
    const [throttle] = await portal.scratch.query<{ failures: number }>(
      'SELECT failures FROM login_throttles WHERE subject = $1',
      [`user:${user.id}`],
    );
    expect(throttle?.failures).toBe(LOGIN_FAILURES_BEFORE_DELAY);
    const right = await call(portal.b.url, 'POST', `${API}/login`, {
      body: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
      ip: randomClientIp(),
    });
    expect(right.body.reason).toBe('login_paused');
  });

  it('check at most 10 authenticator codes when the password is right', async () => {
    const user = await createPortalUser(portal.scratch);
    const token = await login(portal.a.url, user, randomClientIp());
    const proof = { token, body: { password: DEFAULT_PASSWORD } };
    expect((await call(portal.a.url, 'POST', `${API}/proof`, proof)).status).toBe(200);
    const enabled = await call(portal.a.url, 'POST', `${API}/2fa/enable`, { token });
    const secret: string = enabled.body.secret;
    const code = totpCode(secret, new Date());
    expect(
      (await call(portal.a.url, 'POST', `${API}/2fa/verify`, { token, body: { code } })).status,
    ).toBe(200);
    const answers = await hundred((i) =>
      call(i % 2 ? portal.b.url : portal.a.url, 'POST', `${API}/login`, {
        body: {
          usernameOrEmail: user.userName,
          password: DEFAULT_PASSWORD,
          twoFactorCode: otherCode(code),
        },
        ip: randomClientIp(),
      }),
    );
    const wrongCodes = answers.filter((answer) => answer.body.message === CODE_WRONG);
    expect(wrongCodes).toHaveLength(LOGIN_FAILURES_BEFORE_DELAY);
    expect(answers.filter((answer) => answer.body.reason === 'login_paused')).toHaveLength(
      100 - LOGIN_FAILURES_BEFORE_DELAY,
    );
  });

  it('let one address check exactly its limit', async () => {
    const ip = randomClientIp();
    const { limit } = LOGIN_THROTTLE_RULES.perAddress;
    const answers = await hundred((i) =>
      failLogin(i % 2 ? portal.b : portal.a, `nobody_${i}_${ip}`, ip),
    );
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(limit);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(100 - limit);
  });
});

describe('a top-up notification delivered to both processes at once', () => {
  it('credits the payment exactly once', async () => {
    const user = await createPortalUser(portal.scratch);
    const token = await login(portal.a.url, user, randomClientIp());
    const payment = await startTopUp(portal.a.url, token, portal.scratch, 250);
    const body = signedNotification(payment);

    // The provider retries and both processes receive it, several times, at the same moment.
    const deliveries = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        call(index % 2 ? portal.b.url : portal.a.url, 'POST', NOTIFICATION, { body }),
      ),
    );
    expect(deliveries.map((answer) => [answer.status, answer.body])).toEqual(
      Array.from({ length: 10 }, () => [200, 'OK']),
    );

    const wallet = await walletOf(portal.scratch, user.id);
    expect(wallet.kopecks).toBe(25_000);
    expect(wallet.topUps).toEqual([{ amount: 25_000, reference: payment.id }]);
    const history = await call(portal.b.url, 'GET', '/payments/payments/user', { token });
    expect(history.status).toBe(200);
    expect(
      (history.body.data as { kind: string; status: string }[]).filter(
        (item) => item.kind === 'topUp' && item.status === 'completed',
      ),
    ).toHaveLength(1);
  });
});

describe("an account's data changed through one process", () => {
  it('is read fresh by the other, though it answered those reads from memory', async () => {
    const user = await createPortalUser(portal.scratch);
    const token = await login(portal.a.url, user, randomClientIp());
    const firstNameSeenBy = async (server: ServerProcess) =>
      (await currentUser(server, token)).body.firstName as string;
    const before = await firstNameSeenBy(portal.b);

    // Control: a change that announces nothing (triggers off for the transaction) is not seen by
    // B, which answers from memory. So what follows proves the announcement, not a fresh read.
    await portal.scratch.query(
      `BEGIN; SET LOCAL session_replication_role = replica;
       UPDATE users SET first_name = 'Тихоня' WHERE id = '${user.id}'; COMMIT;`,
    );
    expect(await firstNameSeenBy(portal.b)).toBe(before);

    const update = await call(portal.a.url, 'PUT', `${API}/update-profile`, {
      token,
      body: {
        firstName: 'Новое',
        middleName: 'Отчество',
        lastName: 'Имя',
        userName: user.userName,
      },
    });
    expect(update.status).toBe(200);
    expect(await firstNameSeenBy(portal.b)).toBe('Новое');

    // A credit by a notification through A: B's balance and history are fresh at once too.
    const topUps = async () =>
      (
        (await call(portal.b.url, 'GET', '/payments/payments/user', { token })).body.data as {
          kind: string;
          status: string;
          amount: number;
        }[]
      ).filter((item) => item.kind === 'topUp');
    expect((await currentUser(portal.b, token)).body.balance).toBe(0);
    const payment = await startTopUp(portal.a.url, token, portal.scratch, 120);
    expect(await topUps()).toMatchObject([{ amount: 120, status: 'pending' }]);
    const credited = await call(portal.a.url, 'POST', NOTIFICATION, {
      body: signedNotification(payment),
    });
    expect(credited.status).toBe(200);
    expect((await currentUser(portal.b, token)).body.balance).toBe(120);
    expect(await topUps()).toMatchObject([{ amount: 120, status: 'completed' }]);
  });
});
