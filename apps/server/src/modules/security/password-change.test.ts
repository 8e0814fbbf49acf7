import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  nextTotpStep,
  otherCode,
  passwordHashOf,
  sessionStatus,
  turnOnAuthenticator,
} from '../../../test/auth-helpers.js';
import {
  createSignedInUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  lettersTo,
  signIn,
} from '../../../test/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { totpCode } from '../two-factor/totp.js';

const CHANGE = '/portal/auth/password';
const NEW_PASSWORD = 'Harbor-Violet42';

let testApp: TestApp;
const nextIp = addressSequence('10.6');

beforeAll(async () => {
  testApp = await createTestApp();
});

function requestCode(headers: Record<string, string>) {
  return testApp.app.inject({
    method: 'POST',
    url: `${CHANGE}/change-code`,
    headers,
    remoteAddress: nextIp(),
  });
}

function change(headers: Record<string, string>, body: Record<string, unknown>, url = CHANGE) {
  return testApp.app.inject({
    method: 'POST',
    url: `${url}/change`,
    headers,
    payload: { oldPassword: DEFAULT_PASSWORD, newPassword: NEW_PASSWORD, ...body },
    remoteAddress: nextIp(),
  });
}

function login(usernameOrEmail: string, password: string, twoFactorCode?: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: { usernameOrEmail, password, ...(twoFactorCode ? { twoFactorCode } : {}) },
    remoteAddress: nextIp(),
  });
}

/** A signed-in user who asked for the change code; answers the code from the letter. */
async function userWithChangeCode() {
  const signedIn = await createSignedInUser(testApp);
  const response = await requestCode(signedIn.headers);
  expect(response.statusCode).toBe(200);
  return { ...signedIn, code: await latestCodeTo(testApp, signedIn.user.email) };
}

async function userWithAuthenticator() {
  const signedIn = await createSignedInUser(testApp);
  const secret = await turnOnAuthenticator(testApp, signedIn.headers);
  nextTotpStep(testApp.clock);
  return { ...signedIn, secret };
}

describe('change-code', () => {
  it('mails a six-digit code to the account', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const response = await requestCode(headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      message: 'Код подтверждения отправлен на почту',
    });
    const [letter] = await lettersTo(testApp, user.email);
    expect(letter?.subject).toBe('GameHost: код для смены пароля');
    expect(await latestCodeTo(testApp, user.email)).toMatch(/^\d{6}$/);
  });

  it('keeps the resend countdown (429 with Retry-After)', async () => {
    const { headers, user } = await createSignedInUser(testApp);
    await requestCode(headers);
    const again = await requestCode(headers);
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(await lettersTo(testApp, user.email)).toHaveLength(1);
  });

  it('is refused when the authenticator is on: its code confirms instead', async () => {
    const { headers, user } = await userWithAuthenticator();
    const response = await requestCode(headers);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'Подтвердите смену пароля кодом из приложения-аутентификатора',
    );
    expect(await lettersTo(testApp, user.email)).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await requestCode({})).statusCode).toBe(401);
  });
});

describe('password/change with an e-mail code', () => {
  it('changes the password; the other sessions live on unless asked', async () => {
    const { user, headers, code } = await userWithChangeCode();
    const other = await signIn(testApp, user.id);
    const response = await change(headers, { code });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', message: 'Пароль успешно изменён' });
    expect((await login(user.userName, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(user.userName, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect(await sessionStatus(testApp, other.headers)).toBe(200);
    expect(await sessionStatus(testApp, headers)).toBe(200);
    const [letter] = await lettersTo(testApp, user.email);
    expect(letter?.subject).toBe('GameHost: пароль изменён');
  });

  it('with logoutOtherSessions ends every other session at once, not the current', async () => {
    const { user, headers, code } = await userWithChangeCode();
    const laptop = await signIn(testApp, user.id);
    const phone = await signIn(testApp, user.id);
    const response = await change(headers, { code, logoutOtherSessions: true });
    expect(response.statusCode).toBe(200);
    expect(await sessionStatus(testApp, laptop.headers)).toBe(401);
    expect(await sessionStatus(testApp, phone.headers)).toBe(401);
    expect(await sessionStatus(testApp, headers)).toBe(200);
  });

  it('refuses a wrong current password, changes nothing, and keeps the code', async () => {
    const { user, headers, code } = await userWithChangeCode();
    const before = await passwordHashOf(testApp, user.id);
    const response = await change(headers, { code, oldPassword: 'Wrong-Guess1' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Неверный текущий пароль',
      errors: { oldPassword: ['Неверный текущий пароль'] },
    });
    expect(await passwordHashOf(testApp, user.id)).toBe(before);
    expect((await change(headers, { code })).statusCode).toBe(200);
  });

  it('wrong current passwords count toward the account lock', async () => {
    const { user, headers, code } = await userWithChangeCode();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await change(headers, { code, oldPassword: 'Wrong-Guess1' })).statusCode).toBe(400);
    }
    const locked = await change(headers, { code });
    expect(locked.statusCode).toBe(429);
    expect((await login(user.userName, DEFAULT_PASSWORD)).statusCode).toBe(401);
    expect((await login(user.userName, NEW_PASSWORD)).statusCode).toBe(401);
  });

  it('refuses a wrong code and a code never requested', async () => {
    const { user, headers, code } = await userWithChangeCode();
    const wrong = await change(headers, { code: otherCode(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: 'Неверный код', errors: { code: ['Неверный код'] } });
    const stranger = await createSignedInUser(testApp);
    expect((await change(stranger.headers, { code })).statusCode).toBe(400);
    expect((await login(user.userName, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('a code works once', async () => {
    const { headers, code } = await userWithChangeCode();
    expect((await change(headers, { code })).statusCode).toBe(200);
    const again = await change(headers, {
      code,
      oldPassword: NEW_PASSWORD,
      newPassword: 'Second-Change8',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.code).toBeDefined();
  });

  it('refuses a new password breaking the rules, or equal to the old one', async () => {
    const { headers, code } = await userWithChangeCode();
    const cases = [
      ['short1A', 'Пароль должен содержать минимум 8 символов'],
      ['NoDigitsHere', 'Пароль должен содержать хотя бы одну цифру (0-9)'],
      ['Пароль12Ab', 'Пароль не должен содержать кириллицу'],
      ['Password1', 'Этот пароль слишком распространён, выберите другой'],
      [DEFAULT_PASSWORD, 'Новый пароль должен отличаться от текущего'],
    ] as const;
    for (const [newPassword, message] of cases) {
      const response = await change(headers, { code, newPassword });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.newPassword).toEqual([message]);
    }
    const empty = await change(headers, { code, oldPassword: '' });
    expect(empty.json().errors.oldPassword).toEqual(['Введите текущий пароль']);
    expect((await change(headers, { code })).statusCode).toBe(200);
  });

  it('answers only on its own product segment, and needs a session', async () => {
    const { headers, code } = await userWithChangeCode();
    expect((await change(headers, { code }, '/other-product/auth/password')).statusCode).toBe(404);
    expect((await change({}, { code })).statusCode).toBe(401);
  });
});

describe('password/change with the authenticator on', () => {
  it("takes the authenticator's code; the same step is not accepted twice", async () => {
    const { user, headers, secret } = await userWithAuthenticator();
    const code = totpCode(secret, testApp.clock.now());
    expect((await change(headers, { code })).statusCode).toBe(200);
    expect(
      (await login(user.userName, NEW_PASSWORD, totpCode(secret, testApp.clock.now()))).statusCode,
    ).toBe(401);
    const again = await change(headers, {
      code,
      oldPassword: NEW_PASSWORD,
      newPassword: 'Second-Change8',
    });
    expect(again.statusCode).toBe(400);
    nextTotpStep(testApp.clock);
    expect(
      (await login(user.userName, NEW_PASSWORD, totpCode(secret, testApp.clock.now()))).statusCode,
    ).toBe(200);
  });

  it('refuses an e-mail style code that is not the authenticator code', async () => {
    const { user, headers } = await userWithAuthenticator();
    const before = await passwordHashOf(testApp, user.id);
    const response = await change(headers, { code: '000000' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Неверный код');
    expect(await passwordHashOf(testApp, user.id)).toBe(before);
  });
});
