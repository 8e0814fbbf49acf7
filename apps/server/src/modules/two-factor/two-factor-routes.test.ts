import { eq } from 'drizzle-orm';
import { Secret } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  nextTotpStep,
  TOTP_STEP_MS,
} from '../../../test/support/auth-helpers.js';
import { createSignedInUser, DEFAULT_PASSWORD } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { decodeQrPng, secretOfOtpauthUrl } from '../../../test/support/two-factor.js';
import { twoFactorAuthenticators, twoFactorRecoveryCodes } from './schema.js';
import { totpCode } from './totp.js';

let testApp: TestApp;
const nextIp = addressSequence('10.4');
/** Switching the authenticator on needs a session that has just proved its owner (auth/recent-proof.ts). */
const PROVEN = { isProven: true };

beforeAll(async () => {
  testApp = await createTestApp();
});

function post(url: string, headers: Record<string, string>, payload?: unknown) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}${url}`,
    headers,
    remoteAddress: nextIp(),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

function login(usernameOrEmail: string, extra: Record<string, unknown> = {}) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: { usernameOrEmail, password: DEFAULT_PASSWORD, ...extra },
    remoteAddress: nextIp(),
  });
}

/** The code the user's app shows right now (or `offsetSteps` steps away). */
function codeNow(secret: string, offsetSteps = 0) {
  return totpCode(secret, new Date(testApp.clock.now().getTime() + offsetSteps * TOTP_STEP_MS));
}

async function enable(headers: Record<string, string>) {
  const response = await post('/2fa/enable', headers);
  expect(response.statusCode).toBe(200);
  return response.json() as { qrCode: string; secret: string; otpauthUrl: string };
}

/** A signed-in user with the authenticator switched on; answers its secret and recovery codes. */
async function userWithAuthenticator() {
  const signedIn = await createSignedInUser(testApp, {}, PROVEN);
  const { secret } = await enable(signedIn.headers);
  nextTotpStep(testApp.clock);
  const verified = await post('/2fa/verify', signedIn.headers, { code: codeNow(secret) });
  expect(verified.statusCode).toBe(200);
  nextTotpStep(testApp.clock);
  return { ...signedIn, secret, recoveryCodes: verified.json().recoveryCodes as string[] };
}

async function authenticatorRow(userId: string) {
  const [row] = await testApp.database.db
    .select()
    .from(twoFactorAuthenticators)
    .where(eq(twoFactorAuthenticators.userId, userId));
  return row;
}

async function isTwoFactorEnabled(headers: Record<string, string>) {
  const response = await post('/user', headers);
  expect(response.statusCode).toBe(200);
  return response.json().isTwoFactorEnabled as boolean;
}

describe('2fa/enable', () => {
  it('answers a QR code of the otpauth URI, the secret and the URI', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, PROVEN);
    const answer = await enable(headers);
    expect(decodeQrPng(answer.qrCode)).toBe(answer.otpauthUrl);
    expect(secretOfOtpauthUrl(answer.otpauthUrl)).toBe(answer.secret);
    const url = new URL(answer.otpauthUrl);
    expect(decodeURIComponent(url.pathname)).toBe(`/GameHost:${user.email}`);
    expect(url.searchParams.get('issuer')).toBe('GameHost');
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');
    expect(Secret.fromBase32(answer.secret).bytes.length * 8).toBeGreaterThanOrEqual(160);
  });

  it('stores the secret encrypted, never as given', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, PROVEN);
    const { secret } = await enable(headers);
    const row = await authenticatorRow(user.id);
    expect(row?.secretSealed).toMatch(/^v1\./);
    expect(row?.secretSealed).not.toContain(secret);
    const stored = Buffer.from(row!.secretSealed.slice(3), 'base64url');
    expect(stored.includes(Buffer.from(Secret.fromBase32(secret).bytes))).toBe(false);
    expect(stored.includes(Buffer.from(secret))).toBe(false);
  });

  it('stays pending until verified: login and the user answer ignore it', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, PROVEN);
    await enable(headers);
    expect((await authenticatorRow(user.id))?.enabledAt).toBeNull();
    expect(await isTwoFactorEnabled(headers)).toBe(false);
    const signIn = await login(user.userName);
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().token).toEqual(expect.any(String));
  });

  it('a second enable replaces the pending secret; the old one no longer verifies', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const first = await enable(headers);
    const second = await enable(headers);
    expect(second.secret).not.toBe(first.secret);
    nextTotpStep(testApp.clock);
    const stale = await post('/2fa/verify', headers, { code: codeNow(first.secret) });
    expect(stale.statusCode).toBe(400);
    const fresh = await post('/2fa/verify', headers, { code: codeNow(second.secret) });
    expect(fresh.statusCode).toBe(200);
  });

  it('is refused (409) while an authenticator is on, and changes nothing', async () => {
    const { user, headers, secret } = await userWithAuthenticator();
    const before = await authenticatorRow(user.id);
    const response = await post('/2fa/enable', headers);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Аутентификатор уже подключён');
    expect(await authenticatorRow(user.id)).toEqual(before);
    expect((await login(user.userName, { twoFactorCode: codeNow(secret) })).statusCode).toBe(200);
  });

  it('needs a session', async () => {
    const response = await post('/2fa/enable', {});
    expect(response.statusCode).toBe(401);
  });
});

describe('2fa/verify', () => {
  it('refuses a wrong code and keeps the secret pending', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, PROVEN);
    const { secret } = await enable(headers);
    const right = codeNow(secret);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const response = await post('/2fa/verify', headers, { code: wrong });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Неверный код',
      errors: { code: ['Неверный код'] },
    });
    expect((await authenticatorRow(user.id))?.enabledAt).toBeNull();
    expect(await isTwoFactorEnabled(headers)).toBe(false);
  });

  it('refuses malformed codes with the field message', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    await enable(headers);
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const response = await post('/2fa/verify', headers, { code });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.code).toEqual(['Неверный код']);
    }
  });

  it('without a pending secret answers 409', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const response = await post('/2fa/verify', headers, { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Сначала получите QR-код для подключения');
  });

  it('switches the authenticator on and answers ten recovery codes, stored only hashed', async () => {
    const { user, headers } = await createSignedInUser(testApp, {}, PROVEN);
    const { secret } = await enable(headers);
    const response = await post('/2fa/verify', headers, { code: codeNow(secret) });
    expect(response.statusCode).toBe(200);
    const { message, recoveryCodes } = response.json();
    expect(message).toBe('Аутентификатор подключён');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await isTwoFactorEnabled(headers)).toBe(true);

    const stored = await testApp.database.db
      .select()
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    const hashes = stored.map((row) => row.codeHash).join(' ');
    for (const code of recoveryCodes as string[]) {
      expect(hashes).not.toContain(code);
      expect(hashes).not.toContain(code.replace('-', ''));
    }
  });

  it('accepts a code one step early or late, not two', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const { secret } = await enable(headers);
    nextTotpStep(testApp.clock);
    expect((await post('/2fa/verify', headers, { code: codeNow(secret, -2) })).statusCode).toBe(
      400,
    );
    expect((await post('/2fa/verify', headers, { code: codeNow(secret, 2) })).statusCode).toBe(400);
    expect((await post('/2fa/verify', headers, { code: codeNow(secret, -1) })).statusCode).toBe(
      200,
    );
  });
});

describe('login with the authenticator on', () => {
  it('asks for the code, accepts the right one, and refuses the same step again', async () => {
    const { user, secret } = await userWithAuthenticator();
    const first = await login(user.userName);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ requiresTwoFactor: true });

    const code = codeNow(secret);
    const signedIn = await login(user.userName, { twoFactorCode: code });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().token).toEqual(expect.any(String));

    const replay = await login(user.userName, { twoFactorCode: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe('Неверный код');

    // Not even a code of an earlier step, once a later one was used.
    const earlier = await login(user.userName, { twoFactorCode: codeNow(secret, -1) });
    expect(earlier.statusCode).toBe(401);

    nextTotpStep(testApp.clock);
    const next = await login(user.userName, { twoFactorCode: codeNow(secret) });
    expect(next.statusCode).toBe(200);
  });

  it('two simultaneous logins with one code: exactly one gets in', async () => {
    const { user, secret } = await userWithAuthenticator();
    const code = codeNow(secret);
    const answers = await Promise.all([
      login(user.userName, { twoFactorCode: code }),
      login(user.userName, { twoFactorCode: code }),
      login(user.userName, { twoFactorCode: code }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('wrong codes count toward the account lock: then even the right code is refused', async () => {
    const { user, secret } = await userWithAuthenticator();
    for (let attempt = 0; attempt < 10; attempt++) {
      const wrong = await login(user.userName, { twoFactorCode: '000000' });
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await login(user.userName, { twoFactorCode: codeNow(secret) });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().reason).toBe('login_paused');
    expect(locked.json().token).toBeUndefined();
  });
});

describe('2fa/disable', () => {
  it('refuses a wrong code and keeps the authenticator on', async () => {
    const { user, headers } = await userWithAuthenticator();
    const response = await post('/2fa/disable', headers, { code: '000000' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Неверный код');
    expect(await isTwoFactorEnabled(headers)).toBe(true);
    expect((await login(user.userName)).json()).toEqual({ requiresTwoFactor: true });
  });

  it('refuses the code of a step already used', async () => {
    const { headers, secret, user } = await userWithAuthenticator();
    const code = codeNow(secret);
    expect((await login(user.userName, { twoFactorCode: code })).statusCode).toBe(200);
    const response = await post('/2fa/disable', headers, { code });
    expect(response.statusCode).toBe(400);
    expect(await isTwoFactorEnabled(headers)).toBe(true);
  });

  it('switches it off with a valid code; recovery codes go too; login needs no code', async () => {
    const { user, headers, secret } = await userWithAuthenticator();
    const response = await post('/2fa/disable', headers, { code: codeNow(secret) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Аутентификатор отключён' });
    expect(await isTwoFactorEnabled(headers)).toBe(false);
    expect(await authenticatorRow(user.id)).toBeUndefined();
    const left = await testApp.database.db
      .select()
      .from(twoFactorRecoveryCodes)
      .where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(left).toEqual([]);
    expect((await login(user.userName)).json().token).toEqual(expect.any(String));
  });

  it('accepts a recovery code instead (the phone is lost)', async () => {
    const { headers, recoveryCodes } = await userWithAuthenticator();
    const response = await post('/2fa/disable', headers, { code: recoveryCodes[0] });
    expect(response.statusCode).toBe(200);
    expect(await isTwoFactorEnabled(headers)).toBe(false);
  });

  it('wrong codes count toward the account lock, which then refuses even the right one', async () => {
    const { user, headers, secret } = await userWithAuthenticator();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await post('/2fa/disable', headers, { code: '000000' })).statusCode).toBe(400);
    }
    const locked = await post('/2fa/disable', headers, { code: codeNow(secret) });
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    expect(await isTwoFactorEnabled(headers)).toBe(true);
    // The same lock guards login.
    expect((await login(user.userName, { twoFactorCode: codeNow(secret) })).statusCode).toBe(429);
  });

  it('without an authenticator answers 409', async () => {
    const { headers } = await createSignedInUser(testApp, {}, PROVEN);
    const response = await post('/2fa/disable', headers, { code: '123456' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('Аутентификатор не подключён');
  });
});

describe('recovery codes', () => {
  it('each one signs in once in place of a code; status counts what is left', async () => {
    const { user, headers, recoveryCodes } = await userWithAuthenticator();
    const status = async () =>
      (await testApp.app.inject({ method: 'GET', url: `${API}/2fa/status`, headers })).json();
    expect(await status()).toEqual({ isEnabled: true, recoveryCodesLeft: 10 });

    const [first, second] = recoveryCodes as [string, string];
    // Typed in capitals and without the dash: still the same code.
    const typed = first.toUpperCase().replace('-', '');
    const signedIn = await login(user.userName, { twoFactorCode: typed });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().token).toEqual(expect.any(String));
    expect(await status()).toEqual({ isEnabled: true, recoveryCodesLeft: 9 });

    const spent = await login(user.userName, { twoFactorCode: first });
    expect(spent.statusCode).toBe(401);
    expect(spent.json().message).toBe('Неверный код');
    expect((await login(user.userName, { twoFactorCode: 'zzzzz-zzzzz' })).statusCode).toBe(401);

    expect((await login(user.userName, { twoFactorCode: second })).statusCode).toBe(200);
    expect(await status()).toEqual({ isEnabled: true, recoveryCodesLeft: 8 });
  });

  it("one user's recovery code is nothing to another", async () => {
    const owner = await userWithAuthenticator();
    const other = await userWithAuthenticator();
    const answer = await login(other.user.userName, { twoFactorCode: owner.recoveryCodes[0] });
    expect(answer.statusCode).toBe(401);
    expect(
      (await login(owner.user.userName, { twoFactorCode: owner.recoveryCodes[0] })).statusCode,
    ).toBe(200);
  });

  it('regenerating needs a valid code, and the old codes stop working', async () => {
    const { headers, secret, recoveryCodes } = await userWithAuthenticator();
    const refused = await post('/2fa/recovery-codes', headers, { code: '000000' });
    expect(refused.statusCode).toBe(400);

    const response = await post('/2fa/recovery-codes', headers, { code: codeNow(secret) });
    expect(response.statusCode).toBe(200);
    const fresh = response.json().recoveryCodes as string[];
    expect(response.json().message).toBe('Резервные коды обновлены');
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);

    const old = await post('/2fa/disable', headers, { code: recoveryCodes[1] });
    expect(old.statusCode).toBe(400);
    const current = await post('/2fa/disable', headers, { code: fresh[0] });
    expect(current.statusCode).toBe(200);
  });
});
