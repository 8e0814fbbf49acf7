import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  nextTotpStep,
  otherCode,
  proveSession,
} from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  createUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  signIn,
} from '../../../test/support/fixtures.js';
import {
  SECURITY_LOG_URL,
  securityEventsOf,
  securityKindsOf,
  securityLogOf,
} from '../../../test/support/security-log.js';
import { HOSTING_KEY, SIBLING_CONFIG } from '../../../test/support/sibling-sites.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { totpCode } from '../two-factor/index.js';
import { NO_CLIENT } from './index.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const NEW_PASSWORD = 'Another-Pass2';

let t: TestApp;
const nextIp = addressSequence('10.71');

beforeAll(async () => {
  t = await createTestApp({ config: SIBLING_CONFIG });
});

function login(body: Record<string, unknown>, client: { userAgent?: string; ip?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: body,
    remoteAddress: client.ip ?? nextIp(),
    headers: { 'user-agent': client.userAgent ?? FIREFOX },
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Signs in by password through the API and answers the session's headers. */
async function signInByPassword(
  usernameOrEmail: string,
  client: { userAgent?: string; ip?: string } = {},
) {
  const response = await login({ usernameOrEmail, password: DEFAULT_PASSWORD }, client);
  expect(response.statusCode, response.body).toBe(200);
  return bearer(response.json().token);
}

/** Turns the authenticator on through the API; answers its secret and recovery codes. */
async function enableAuthenticator(headers: Record<string, string>) {
  await proveSession(t, headers);
  const enable = await t.app.inject({ method: 'POST', url: `${API}/2fa/enable`, headers });
  const { secret } = enable.json<{ secret: string }>();
  const verified = await t.app.inject({
    method: 'POST',
    url: `${API}/2fa/verify`,
    headers,
    payload: { code: totpCode(secret, t.clock.now()) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  nextTotpStep(t.clock);
  return { secret, recoveryCodes: verified.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

describe('sign-in events', () => {
  it('logs a sign-in by password with its browser and address, and marks a new device', async () => {
    const user = await createUser(t);
    const first = await signInByPassword(user.userName, { ip: '203.0.113.10' });
    await signInByPassword(user.email, { ip: '203.0.113.11' });
    await signInByPassword(user.userName, { userAgent: IPHONE, ip: '203.0.113.12' });

    const events = await securityLogOf(t, first);
    expect(events).toMatchObject([
      {
        kind: 'sign_in',
        count: 1,
        userAgent: IPHONE,
        ipAddress: '203.0.113.12',
        details: { method: 'password', isNewDevice: true },
      },
      { kind: 'sign_in', userAgent: FIREFOX, details: { method: 'password' } },
      { kind: 'sign_in', ipAddress: '203.0.113.10', details: { method: 'password' } },
    ]);
    // The first sign-in ever and a known browser are no "new device".
    expect(events[1]!.details.isNewDevice).toBeUndefined();
    expect(events[2]!.details.isNewDevice).toBeUndefined();
  });

  it('logs the sign-in that confirms a registration', async () => {
    const email = `log-${Date.now()}@example.com`;
    const registered = await t.app.inject({
      method: 'POST',
      url: `${API}/register`,
      payload: {
        email,
        password: DEFAULT_PASSWORD,
        username: `log_${Date.now() % 1_000_000}`,
        firstName: 'Анна',
        lastName: 'Иванова',
      },
      remoteAddress: nextIp(),
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const verified = await t.app.inject({
      method: 'POST',
      url: `${API}/verify-registration`,
      payload: { email, code: await latestCodeTo(t, email) },
      remoteAddress: '203.0.113.20',
      headers: { 'user-agent': FIREFOX },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await securityLogOf(t, bearer(verified.json().token))).toMatchObject([
      {
        kind: 'sign_in',
        ipAddress: '203.0.113.20',
        // The password and the code mailed to the address (sign-in-policy.ts).
        details: { method: 'registration', amr: ['pwd', 'email'] },
      },
    ]);
  });

  it('logs the second factor a sign-in gave, and a recovery code as used', async () => {
    const { user, headers } = await createSignedInUser(t);
    const { secret, recoveryCodes } = await enableAuthenticator(headers);
    const byCode = await login({
      usernameOrEmail: user.userName,
      password: DEFAULT_PASSWORD,
      twoFactorCode: totpCode(secret, t.clock.now()),
    });
    expect(byCode.statusCode, byCode.body).toBe(200);
    const byRecovery = await login({
      usernameOrEmail: user.userName,
      password: DEFAULT_PASSWORD,
      twoFactorCode: recoveryCodes[0],
    });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);

    expect(await securityLogOf(t, headers)).toMatchObject([
      { kind: 'sign_in', details: { method: 'password', secondFactor: 'recovery_code' } },
      { kind: 'recovery_code_used' },
      { kind: 'sign_in', details: { method: 'password', secondFactor: 'authenticator' } },
      { kind: 'two_factor_enabled' },
    ]);
  });
});

describe('failed sign-ins', () => {
  it('counts a day’s failures in one row, with the latest browser and address', async () => {
    const user = await createUser(t);
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      const refused = await login({ usernameOrEmail: user.userName, password: 'wrong' }, { ip });
      expect(refused.statusCode).toBe(401);
    }
    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'sign_in_failed', count: 3, ipAddress: '198.51.100.3', userAgent: FIREFOX },
    ]);

    // The next day starts a new row.
    t.clock.advance(24 * 60 * 60_000);
    await login({ usernameOrEmail: user.email, password: 'wrong' });
    expect((await securityEventsOf(t, user.id)).map((event) => event.count)).toEqual([1, 3]);
  });

  it('counts exactly 100 of 100 parallel failures (the account lock refuses most, they still count)', async () => {
    const user = await createUser(t);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        login({ usernameOrEmail: user.userName, password: 'wrong-password' }),
      ),
    );
    // Ten passwords checked and wrong, 90 refused while the account waits: all failures.
    expect(answers.filter((answer) => answer.statusCode === 401)).toHaveLength(10);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(90);
    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'sign_in_failed', count: 100 },
    ]);
  });

  it('counts exactly 100 parallel records of the log itself', async () => {
    const user = await createUser(t);
    await Promise.all(
      Array.from({ length: 100 }, () =>
        t.app.deps.securityLog.recordFailedSignIn(user.id, NO_CLIENT),
      ),
    );
    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'sign_in_failed', count: 100 },
    ]);
  });

  it('counts a wrong second factor, and nothing for a login that names no account', async () => {
    const { user, headers } = await createSignedInUser(t);
    const { secret } = await enableAuthenticator(headers);
    const wrong = await login({
      usernameOrEmail: user.userName,
      password: DEFAULT_PASSWORD,
      twoFactorCode: otherCode(totpCode(secret, t.clock.now())),
    });
    expect(wrong.statusCode).toBe(401);
    expect((await securityEventsOf(t, user.id))[0]).toMatchObject({
      kind: 'sign_in_failed',
      count: 1,
    });
    const unknown = await login({ usernameOrEmail: 'nobody_here', password: 'wrong' });
    expect(unknown.statusCode).toBe(401);
  });
});

describe('sessions ending', () => {
  it('logs a sign-out, an ended device, and signing out of the others and of all', async () => {
    const { user, headers } = await createSignedInUser(t);
    const other = await signIn(t, user.id);
    const third = await signIn(t, user.id);

    const ended = await t.app.inject({
      method: 'DELETE',
      url: `${API}/devices/${other.sessionId}`,
      headers: { ...headers, 'user-agent': IPHONE },
      remoteAddress: '203.0.113.30',
    });
    expect(ended.statusCode).toBe(200);
    // A device that is not there ends nothing, and logs nothing.
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${API}/devices/${other.sessionId}`,
      headers,
    });
    expect(again.statusCode).toBe(404);

    const others = await t.app.inject({
      method: 'POST',
      url: `${API}/logout-all-except-current`,
      headers,
    });
    expect(others.statusCode).toBe(200);
    const fourth = await signIn(t, user.id);
    const all = await t.app.inject({ method: 'POST', url: `${API}/logout-all`, headers });
    expect(all.statusCode).toBe(200);
    const own = await signIn(t, user.id);
    const out = await t.app.inject({ method: 'POST', url: `${API}/logout`, headers: own.headers });
    expect(out.statusCode).toBe(200);
    expect(third && fourth).toBeTruthy();
    // Ending this very device from the list is a sign-out, not "another device".
    const last = await signIn(t, user.id);
    const self = await t.app.inject({
      method: 'DELETE',
      url: `${API}/devices/${last.sessionId}`,
      headers: last.headers,
    });
    expect(self.statusCode).toBe(200);

    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'sign_out', details: {} },
      { kind: 'sign_out', details: {} },
      { kind: 'sessions_ended', details: { isCurrentKept: false } },
      { kind: 'sessions_ended', details: { isCurrentKept: true } },
      {
        kind: 'session_ended',
        details: { via: 'devices' },
        userAgent: IPHONE,
        ipAddress: '203.0.113.30',
      },
    ]);
  });

  it('logs a hand-off to a sibling site, and a sign-out there with the site’s name', async () => {
    const { user, headers } = await createSignedInUser(t);
    const minted = await t.app.inject({
      method: 'POST',
      url: `${API}/handoff`,
      headers: { ...headers, 'user-agent': FIREFOX },
      payload: { link: 'https://hosting.example.com/panel' },
    });
    expect(minted.statusCode).toBe(200);
    const code = new URL(minted.json().url).searchParams.get('token')!;
    const redeemed = await t.app.inject({
      method: 'POST',
      url: `${API}/verify-token`,
      headers: { 'x-api-key': HOSTING_KEY },
      payload: { token: code },
    });
    expect(redeemed.statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'POST',
      url: `${API}/logout`,
      headers: bearer(redeemed.json().token),
    });
    expect(out.statusCode).toBe(200);

    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'sign_out', details: { site: 'Хостинг' } },
      { kind: 'hand_off', details: { site: 'Хостинг' }, userAgent: FIREFOX },
    ]);
  });
});

describe('changes of the account', () => {
  it('logs a password change, and nothing for a change refused', async () => {
    const { user, headers } = await createSignedInUser(t);
    const change = (code: string) =>
      t.app.inject({
        method: 'POST',
        url: '/portal/auth/password/change',
        headers,
        payload: {
          oldPassword: DEFAULT_PASSWORD,
          newPassword: NEW_PASSWORD,
          code,
          logoutOtherSessions: true,
        },
      });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/portal/auth/password/change-code',
      headers,
    });
    expect(sent.statusCode).toBe(200);
    const code = await latestCodeTo(t, user.email);
    expect((await change(otherCode(code))).statusCode).toBe(400);
    expect(await securityKindsOf(t, user.id)).toEqual([]);
    expect((await change(code)).statusCode).toBe(200);
    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'password_changed', details: { isSignedOutElsewhere: true } },
    ]);
  });

  it('logs a password reset and the sign-out everywhere after it', async () => {
    const user = await createUser(t);
    const asked = await t.app.inject({
      method: 'POST',
      url: `${API}/forgot-password`,
      payload: { email: user.email },
      remoteAddress: nextIp(),
    });
    expect(asked.statusCode).toBe(200);
    const code = await latestCodeTo(t, user.email);
    const reset = await t.app.inject({
      method: 'POST',
      url: `${API}/reset-password-with-code`,
      payload: { email: user.email, code, newPassword: NEW_PASSWORD, logoutEverywhere: false },
      remoteAddress: '203.0.113.40',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const everywhere = await t.app.inject({
      method: 'POST',
      url: `${API}/logout-all`,
      payload: { email: user.email, code },
      remoteAddress: nextIp(),
    });
    expect(everywhere.statusCode, everywhere.body).toBe(200);
    expect(await securityEventsOf(t, user.id)).toMatchObject([
      { kind: 'sessions_ended', details: { isCurrentKept: false } },
      {
        kind: 'password_reset',
        details: { isSignedOutElsewhere: false },
        ipAddress: '203.0.113.40',
      },
    ]);
  });

  it('logs two-factor switched on and off, and nothing for a wrong code', async () => {
    const { user, headers } = await createSignedInUser(t);
    const { secret } = await enableAuthenticator(headers);
    const disable = (code: string) =>
      t.app.inject({ method: 'POST', url: `${API}/2fa/disable`, headers, payload: { code } });
    expect((await disable(otherCode(totpCode(secret, t.clock.now())))).statusCode).toBe(400);
    expect((await disable(totpCode(secret, t.clock.now()))).statusCode).toBe(200);
    expect(await securityKindsOf(t, user.id)).toEqual([
      'two_factor_disabled',
      'two_factor_enabled',
    ]);
  });

  it('logs an e-mail change once the new address is confirmed', async () => {
    const { user, headers } = await createSignedInUser(t);
    const step = (name: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url: `${API}/email-change/${name}`,
        headers,
        ...(payload ? { payload } : {}),
      });
    const newEmail = `changed-${Date.now()}@example.com`;
    expect((await step('request-code')).statusCode).toBe(200);
    const current = await latestCodeTo(t, user.email);
    expect((await step('verify-current', { code: current })).statusCode).toBe(200);
    expect((await step('new-email', { email: newEmail })).statusCode).toBe(200);
    expect(await securityKindsOf(t, user.id)).toEqual([]);
    const next = await latestCodeTo(t, newEmail);
    expect((await step('confirm', { code: next })).statusCode).toBe(200);
    expect(await securityKindsOf(t, user.id)).toEqual(['email_changed']);
  });
});

describe('recording in a transaction', () => {
  it('records with the transaction: nothing of one that rolls back, all of one that commits', async () => {
    const { user } = await createSignedInUser(t);
    const { securityLog } = t.app.deps;
    const before = (await securityEventsOf(t, user.id)).length;
    // The insert is prepared once (db/prepared.ts): it must still run on the transaction's
    // connection, not beside it.
    await expect(
      t.database.db.transaction(async (tx) => {
        await securityLog.record(tx, user.id, 'sign_out', NO_CLIENT, { method: 'password' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await securityEventsOf(t, user.id)).toHaveLength(before);

    await t.database.db.transaction((tx) =>
      securityLog.record(tx, user.id, 'sign_out', NO_CLIENT, { method: 'password' }),
    );
    const events = await securityEventsOf(t, user.id);
    expect(events).toHaveLength(before + 1);
    expect(events.find((event) => event.kind === 'sign_out')).toMatchObject({
      details: { method: 'password' },
    });
  });
});

describe('reading the log', () => {
  it('answers only its owner, newest first, in pages that lose and repeat nothing', async () => {
    const { user, headers } = await createSignedInUser(t);
    const stranger = await createSignedInUser(t);
    const { securityLog } = t.app.deps;
    for (let i = 0; i < 45; i++) {
      // Some share their instant: the id breaks the tie.
      if (i % 3 === 0) t.clock.advance(1_000);
      await securityLog.record(t.database.db, user.id, 'sign_out', NO_CLIENT);
    }
    const page = async (query: Record<string, string>) => {
      const response = await t.app.inject({
        method: 'GET',
        url: SECURITY_LOG_URL,
        headers,
        query,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{
        data: { id: string; occurredAt: string }[];
        nextCursor: string | null;
      }>();
    };
    const first = await page({});
    expect(first.data).toHaveLength(20);
    const second = await page({ cursor: first.nextCursor! });
    const third = await page({ cursor: second.nextCursor! });
    expect(third.data).toHaveLength(5);
    expect(third.nextCursor).toBeNull();
    const all = [...first.data, ...second.data, ...third.data];
    expect(new Set(all.map((event) => event.id)).size).toBe(45);
    const times = all.map((event) => event.occurredAt);
    expect(times).toEqual([...times].sort().reverse());

    expect(await securityLogOf(t, stranger.headers)).toEqual([]);
  });

  it('refuses a malformed cursor or limit, a missing session and a sibling site’s session', async () => {
    const { headers } = await createSignedInUser(t);
    const get = (query: Record<string, string>, h: Record<string, string> = headers) =>
      t.app.inject({ method: 'GET', url: SECURITY_LOG_URL, headers: h, query });
    expect((await get({ cursor: 'not-a-cursor' })).statusCode).toBe(400);
    const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    // Shaped like a cursor, but no instant: refused before the database sees it.
    expect((await get({ cursor: cursorOf(['2026-02-30T00:00:00.000000Z', '1']) })).statusCode).toBe(
      400,
    );
    expect((await get({ cursor: cursorOf(['2026-01-01', '1']) })).statusCode).toBe(400);
    expect((await get({ limit: '0' })).statusCode).toBe(400);
    expect((await get({ limit: '101' })).statusCode).toBe(400);
    expect((await get({}, {})).statusCode).toBe(401);
    expect((await get({}, bearer('no-such-token'))).statusCode).toBe(401);

    const { user } = await createSignedInUser(t);
    const { token } = await t.app.deps.sessions.create({
      userId: user.id,
      clientOrigin: 'https://hosting.example.com',
    });
    expect((await get({}, bearer(token))).statusCode).toBe(403);
  });

  it('is emptied with the account', async () => {
    const user = await createUser(t);
    await t.app.deps.securityLog.record(t.database.db, user.id, 'sign_out', NO_CLIENT);
    await t.database.db.execute(sql`DELETE FROM users WHERE id = ${user.id}`);
    expect(await securityEventsOf(t, user.id)).toEqual([]);
  });
});
