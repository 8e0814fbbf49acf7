import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTH_API as API, addressSequence } from '../../../test/support/auth-helpers.js';
import { DateMovingClock } from '../../../test/support/date-clock.js';
import {
  createUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  lettersTo,
} from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { verifyPassword } from './passwords.js';
import { loginThrottles, sessions } from './schema.js';
import type { SecondFactor } from './second-factor.js';

// Watched, not replaced: the test counts the argon2 checks an unknown login still costs.
vi.mock('./passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('./passwords.js')>();
  return { ...original, verifyPassword: vi.fn(original.verifyPassword) };
});

const FAILED = { message: 'Неверный логин или пароль' };
/** The answer while the login waits (the wait rounded up to `minutes`). */
const paused = (minutes: number) => ({
  message: `Вход для этого логина приостановлен на ${minutes} мин. из-за неверных попыток. Забыли пароль?`,
  reason: 'login_paused',
});

/** A pretend authenticator: on for users in `enabled`, accepting only '246810'. */
const enabled = new Set<string>();
let secondFactorChecks = 0;
const fakeSecondFactor: SecondFactor = {
  isEnabled: async (userId) => enabled.has(userId),
  verifyLoginCode: async (userId, code) => {
    secondFactorChecks += 1;
    return enabled.has(userId) && code === '246810';
  },
};

let testApp: TestApp;
/** The address limit's window counts in memory, by `Date`: the clock moves it too. */
const clock = new DateMovingClock();
const nextIp = addressSequence('10.2');

beforeAll(async () => {
  testApp = await createTestApp({ secondFactor: fakeSecondFactor, clock });
});

function login(body: Record<string, unknown>, remoteAddress = nextIp(), headers = {}) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: body,
    remoteAddress,
    headers,
  });
}

async function sessionRow(token: string) {
  const { hashToken } = await import('./sessions.js');
  const [row] = await testApp.database.db
    .select()
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)));
  return row;
}

describe('login', () => {
  it('signs in by username or e-mail in any letter case and records the device', async () => {
    const user = await createUser(testApp, { email: 'Case@Example.com', userName: 'CaseUser' });
    for (const usernameOrEmail of [
      'CaseUser',
      'caseuser',
      ' CASE@example.COM ',
      'case@example.com',
    ]) {
      const ip = nextIp();
      const response = await login({ usernameOrEmail, password: DEFAULT_PASSWORD }, ip, {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
      });
      expect(response.statusCode, usernameOrEmail).toBe(200);
      const body = response.json();
      expect(body).toEqual({ token: expect.any(String), userId: user.id });
      const row = await sessionRow(body.token);
      expect(row).toMatchObject({
        userId: user.id,
        ipAddress: ip,
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
        rememberMe: false,
      });
    }
  });

  it('gives rememberMe sessions the longer limits', async () => {
    const user = await createUser(testApp);
    const short = (
      await login({ usernameOrEmail: user.userName, password: DEFAULT_PASSWORD })
    ).json();
    const long = (
      await login({ usernameOrEmail: user.userName, password: DEFAULT_PASSWORD, rememberMe: true })
    ).json();
    const shortRow = await sessionRow(short.token);
    const longRow = await sessionRow(long.token);
    expect(longRow?.rememberMe).toBe(true);
    expect(longRow!.expiresAt.getTime()).toBeGreaterThan(shortRow!.expiresAt.getTime());

    // Two idle days end the normal session but not the remembered one.
    testApp.clock.advance(2 * 24 * 3600_000);
    const me = (token: string) =>
      testApp.app.inject({
        method: 'POST',
        url: `${API}/user`,
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await me(short.token)).statusCode).toBe(401);
    expect((await me(long.token)).statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown login the same way, at a similar cost', async () => {
    const user = await createUser(testApp);
    const wrong = await login({ usernameOrEmail: user.userName, password: 'Wrong-Pass1' });
    const unknown = await login({ usernameOrEmail: 'nobody_here', password: 'Wrong-Pass1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(FAILED);
    expect(unknown.json()).toEqual(FAILED);
    expect(wrong.body).toBe(unknown.body);

    // An unknown login still runs one argon2 check (against a dummy hash), like a known one, so
    // the answer takes as long: counted rather than timed, so a busy machine cannot fail it.
    const checks = vi.mocked(verifyPassword);
    checks.mockClear();
    await login({ usernameOrEmail: user.email, password: 'Wrong-Pass1' });
    expect(checks).toHaveBeenCalledTimes(1);
    checks.mockClear();
    await login({ usernameOrEmail: 'missing@example.com', password: 'Wrong-Pass1' });
    expect(checks).toHaveBeenCalledTimes(1);
    expect(checks.mock.calls[0]![0]).toMatch(/^\$argon2id\$/);
  });

  it('refuses an unconfirmed account with a clear message and mails a fresh code', async () => {
    const user = await createUser(testApp, { email: 'pending@example.com', confirmedAt: null });
    const wrong = await login({ usernameOrEmail: user.email, password: 'Wrong-Pass1' });
    expect(wrong.json()).toEqual(FAILED);
    expect(await lettersTo(testApp, 'pending@example.com')).toHaveLength(0);

    const response = await login({ usernameOrEmail: user.email, password: DEFAULT_PASSWORD });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      message: 'Почта не подтверждена. Код подтверждения отправлен на вашу почту',
      confirmation: { email: user.email, resendAfterSeconds: 60 },
    });
    const code = await latestCodeTo(testApp, 'pending@example.com');
    // Inside the countdown no second letter goes, the answer stays the same.
    expect(
      (await login({ usernameOrEmail: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(403);
    expect(await lettersTo(testApp, 'pending@example.com')).toHaveLength(1);

    const confirmed = await testApp.app.inject({
      method: 'POST',
      url: `${API}/verify-registration`,
      payload: { email: user.email, code },
    });
    expect(confirmed.statusCode).toBe(200);
    expect(
      (await login({ usernameOrEmail: user.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('tells an unconfirmed account signing in by username where its code went and when another may be asked', async () => {
    const user = await createUser(testApp, {
      email: 'Pending.Name@example.com',
      userName: 'pending_name',
      confirmedAt: null,
    });
    const first = await login({ usernameOrEmail: 'Pending_Name', password: DEFAULT_PASSWORD });
    expect(first.statusCode).toBe(403);
    expect(first.json()).toEqual({
      message: 'Почта не подтверждена. Код подтверждения отправлен на вашу почту',
      confirmation: { email: user.email, resendAfterSeconds: 60 },
    });
    const code = await latestCodeTo(testApp, user.email);

    // Inside the countdown: no new letter, the same address, the seconds that are left.
    testApp.clock.advance(20_000);
    const again = await login({ usernameOrEmail: 'pending_name', password: DEFAULT_PASSWORD });
    expect(again.json()).toMatchObject({
      confirmation: { email: user.email, resendAfterSeconds: 40 },
    });
    expect(await lettersTo(testApp, user.email)).toHaveLength(1);

    // A wrong password learns nothing of the address.
    const wrong = await login({ usernameOrEmail: 'pending_name', password: 'Wrong-Pass1' });
    expect(wrong.json()).toEqual(FAILED);

    const confirmed = await testApp.app.inject({
      method: 'POST',
      url: `${API}/verify-registration`,
      payload: { email: user.email, code },
    });
    expect(confirmed.statusCode).toBe(200);
  });

  it('locks an account after 10 failures across username, e-mail and case, then lets it in', async () => {
    const user = await createUser(testApp, { email: 'locked@example.com', userName: 'LockMe' });
    const names = ['LockMe', 'lockme', 'LOCKED@example.com', 'locked@example.com'];
    for (let i = 0; i < 10; i++) {
      const response = await login({ usernameOrEmail: names[i % 4], password: `Wrong-Pass${i}` });
      expect(response.json()).toEqual(FAILED);
    }
    // Even the right password is refused, with the wait, from any address.
    const refused = await login({ usernameOrEmail: 'LockMe', password: DEFAULT_PASSWORD });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.json()).toEqual(paused(1));

    testApp.clock.advance(59_000);
    expect(
      (await login({ usernameOrEmail: 'lockme', password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(429);
    testApp.clock.advance(2_000);
    const after = await login({ usernameOrEmail: 'lockme', password: DEFAULT_PASSWORD });
    expect(after.statusCode).toBe(200);
    expect(after.json().userId).toBe(user.id);

    // The success reset the count: nine more failures do not lock.
    for (let i = 0; i < 9; i++) await login({ usernameOrEmail: 'lockme', password: 'Wrong-Pass1' });
    expect(
      (await login({ usernameOrEmail: 'lockme', password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('grows the wait with each failure after the tenth, up to 15 minutes', async () => {
    await createUser(testApp, { userName: 'GrowMe' });
    const fail = () => login({ usernameOrEmail: 'growme', password: 'Wrong-Pass1' });
    const right = () => login({ usernameOrEmail: 'growme', password: DEFAULT_PASSWORD });
    for (let i = 0; i < 10; i++) await fail();
    const waits = [60_000];
    for (const wait of [120_000, 240_000, 480_000, 900_000, 900_000]) {
      testApp.clock.advance(waits.at(-1)! + 1);
      await fail();
      waits.push(wait);
    }
    testApp.clock.advance(899_000);
    expect((await right()).statusCode).toBe(429);
    testApp.clock.advance(2_000);
    expect((await right()).statusCode).toBe(200);
  });

  it('counts failures of unknown logins too, so a lock reveals nothing about accounts', async () => {
    for (let i = 0; i < 10; i++)
      await login({ usernameOrEmail: 'Ghost_User', password: 'X-pass1aa' });
    const [row] = await testApp.database.db
      .select()
      .from(loginThrottles)
      .where(eq(loginThrottles.subject, 'login:ghost_user'));
    expect(row?.failures).toBe(10);
    expect(row?.lockedUntil?.getTime()).toBe(testApp.clock.now().getTime() + 60_000);
  });

  it('answers 429 to one address trying many accounts', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await login({ usernameOrEmail: `victim_${i}`, password: 'Wrong-Pass1' }, ip)).statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
    const user = await createUser(testApp);
    const blocked = await login({ usernameOrEmail: user.userName, password: DEFAULT_PASSWORD }, ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect(
      (await login({ usernameOrEmail: user.userName, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
    // The window ends.
    testApp.clock.advance(15 * 60_000);
    expect(
      (await login({ usernameOrEmail: user.userName, password: DEFAULT_PASSWORD }, ip)).statusCode,
    ).toBe(200);
  });

  it('asks for the second factor, refuses a wrong one and counts it toward the lock', async () => {
    const user = await createUser(testApp, { userName: 'TwoFactor' });
    enabled.add(user.id);
    const first = await login({ usernameOrEmail: 'twofactor', password: DEFAULT_PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ requiresTwoFactor: true });
    const [count] = await testApp.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.userId, user.id));
    expect(count).toBeUndefined();

    const wrongCode = await login({
      usernameOrEmail: 'twofactor',
      password: DEFAULT_PASSWORD,
      twoFactorCode: '111111',
    });
    expect(wrongCode.statusCode).toBe(401);
    expect(wrongCode.json()).toEqual({ message: 'Неверный код' });

    // The second factor does not replace the password.
    const wrongPassword = await login({
      usernameOrEmail: 'twofactor',
      password: 'Wrong-Pass1',
      twoFactorCode: '246810',
    });
    expect(wrongPassword.json()).toEqual(FAILED);

    const ok = await login({
      usernameOrEmail: 'twofactor',
      password: DEFAULT_PASSWORD,
      twoFactorCode: '246810',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().userId).toBe(user.id);

    // Ten wrong codes lock the account like ten wrong passwords.
    for (let i = 0; i < 10; i++) {
      await login({
        usernameOrEmail: 'twofactor',
        password: DEFAULT_PASSWORD,
        twoFactorCode: '999999',
      });
    }
    const locked = await login({
      usernameOrEmail: 'twofactor',
      password: DEFAULT_PASSWORD,
      twoFactorCode: '246810',
    });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(paused(1));
  });

  it('checks at most 10 passwords of 100 parallel attempts on one account', async () => {
    const user = await createUser(testApp, { userName: 'BurstMe' });
    const checks = vi.mocked(verifyPassword);
    checks.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        login({ usernameOrEmail: 'burstme', password: `Wrong-Pass${i}` }),
      ),
    );
    expect(checks).toHaveBeenCalledTimes(10);
    // The ten checked fail; the 90 others find the login waiting.
    expect(answers.filter((answer) => answer.body === JSON.stringify(FAILED))).toHaveLength(10);
    expect(
      answers.filter(
        (answer) => answer.statusCode === 429 && answer.body === JSON.stringify(paused(1)),
      ),
    ).toHaveLength(90);
    // The lock is in force: even the right password is refused, and nothing was checked for it.
    checks.mockClear();
    expect((await login({ usernameOrEmail: user.email, password: DEFAULT_PASSWORD })).body).toBe(
      JSON.stringify(paused(1)),
    );
    expect(checks).not.toHaveBeenCalled();
  });

  it('checks at most 10 second-factor codes of 100 parallel attempts with the right password', async () => {
    const user = await createUser(testApp, { userName: 'BurstCodes' });
    enabled.add(user.id);
    secondFactorChecks = 0;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        login({
          usernameOrEmail: 'burstcodes',
          password: DEFAULT_PASSWORD,
          twoFactorCode: String(100_000 + i),
        }),
      ),
    );
    expect(secondFactorChecks).toBe(10);
    const wrongCodes = answers.filter((answer) => answer.json().message === 'Неверный код');
    expect(wrongCodes).toHaveLength(10);
    expect(answers.filter((answer) => answer.body === JSON.stringify(paused(1)))).toHaveLength(90);
    const locked = await login({
      usernameOrEmail: 'burstcodes',
      password: DEFAULT_PASSWORD,
      twoFactorCode: '246810',
    });
    expect(locked.body).toBe(JSON.stringify(paused(1)));
  });

  it('lets one address check exactly its limit of 100 parallel attempts on many accounts', async () => {
    const ip = nextIp();
    const checks = vi.mocked(verifyPassword);
    checks.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        login({ usernameOrEmail: `burst_victim_${i}`, password: 'Wrong-Pass1' }, ip),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(70);
    expect(checks).toHaveBeenCalledTimes(30);
  });

  it('does not count a sign-in, nor the password step of a two-factor sign-in, against the address', async () => {
    const ip = nextIp();
    const user = await createUser(testApp, { userName: 'OftenHere' });
    const guarded = await createUser(testApp, { userName: 'OftenCoded' });
    enabled.add(guarded.id);
    for (let i = 0; i < 40; i++) {
      expect(
        (await login({ usernameOrEmail: user.userName, password: DEFAULT_PASSWORD }, ip))
          .statusCode,
      ).toBe(200);
      expect(
        (await login({ usernameOrEmail: guarded.userName, password: DEFAULT_PASSWORD }, ip)).json(),
      ).toEqual({ requiresTwoFactor: true });
    }
  });

  it('validates the payload with a Russian message per field', async () => {
    const response = await login({ usernameOrEmail: '  ', password: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toMatchObject({
      usernameOrEmail: ['Введите логин'],
      password: ['Введите пароль'],
    });
    const shortCode = await login({ usernameOrEmail: 'x', password: 'y', twoFactorCode: '123' });
    expect(shortCode.json().errors.twoFactorCode).toEqual(['Код должен содержать 6 символов']);
  });
});

describe('client address behind a trusted proxy', () => {
  it('takes X-Forwarded-For only from a configured proxy', async () => {
    const behindProxy = await createTestApp({ config: { TRUSTED_PROXIES: ['10.9.9.9'] } });
    const user = await createUser(behindProxy);
    const attempt = (remoteAddress: string) =>
      behindProxy.app.inject({
        method: 'POST',
        url: `${API}/login`,
        payload: { usernameOrEmail: user.userName, password: DEFAULT_PASSWORD },
        remoteAddress,
        headers: { 'x-forwarded-for': '203.0.113.7' },
      });
    const viaProxy = (await attempt('10.9.9.9')).json();
    const direct = (await attempt('10.8.8.8')).json();
    const ipOf = async (token: string) => {
      const { hashToken } = await import('./sessions.js');
      const [row] = await behindProxy.database.db
        .select()
        .from(sessions)
        .where(eq(sessions.tokenHash, hashToken(token)));
      return row?.ipAddress;
    };
    expect(await ipOf(viaProxy.token)).toBe('203.0.113.7');
    expect(await ipOf(direct.token)).toBe('10.8.8.8');
  });
});
