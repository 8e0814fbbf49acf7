import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  nextTotpStep,
  otherCode,
  passwordHashOf,
  sessionStatus,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  lettersTo,
  signIn,
} from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { oneTimeCodes } from '../auth/schema.js';
import { totpCode } from '../two-factor/index.js';

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

function checkCode(headers: Record<string, string>, code: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `${CHANGE}/change-code/check`,
    headers,
    payload: { code },
    remoteAddress: nextIp(),
  });
}

/** The tries counted on the user's live password-change code. */
async function triesCounted(userId: string): Promise<number | undefined> {
  const [row] = await testApp.database.db
    .select({ attempts: oneTimeCodes.attempts })
    .from(oneTimeCodes)
    .where(and(eq(oneTimeCodes.purpose, 'password-change'), eq(oneTimeCodes.subject, userId)));
  return row?.attempts;
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

describe('change-code/check', () => {
  it('accepts the right code without using it: the change still takes it', async () => {
    const { user, headers, code } = await userWithChangeCode();
    for (let i = 0; i < 7; i++) {
      const checked = await checkCode(headers, code);
      expect(checked.statusCode).toBe(200);
      expect(checked.json()).toEqual({ status: 'ok', message: 'Код подтверждён' });
    }
    expect((await change(headers, { code })).statusCode).toBe(200);
    expect((await login(user.userName, NEW_PASSWORD)).statusCode).toBe(200);
    // Used by the change: now it is no longer right.
    expect((await checkCode(headers, code)).statusCode).toBe(400);
  });

  it('counts a wrong code against the same five tries as the change, saying how many are left', async () => {
    const { headers, code } = await userWithChangeCode();
    const wrong = otherCode(code);
    const messages: string[] = [];
    for (let i = 0; i < 4; i++) {
      const refused = await checkCode(headers, wrong);
      expect(refused.statusCode).toBe(400);
      messages.push(refused.json().errors.code[0]);
    }
    expect(messages).toEqual([
      'Неверный код. Осталось попыток: 4',
      'Неверный код. Осталось попыток: 3',
      'Неверный код. Осталось попыток: 2',
      'Неверный код. Осталось попыток: 1',
    ]);
    // The change's wrong try is one of the same five; the last one is spent by the check.
    expect((await change(headers, { code: wrong })).statusCode).toBe(400);
    const exhausted = await checkCode(headers, code);
    expect(exhausted.statusCode).toBe(400);
    expect(exhausted.json().errors.code).toEqual([
      'Слишком много неверных попыток. Запросите новый код',
    ]);
    expect((await change(headers, { code })).json().errors.code).toEqual([
      'Слишком много неверных попыток. Запросите новый код',
    ]);
  });

  it('the fifth wrong code says that a new one is needed', async () => {
    const { headers, code } = await userWithChangeCode();
    for (let i = 0; i < 4; i++) await checkCode(headers, otherCode(code));
    const last = await checkCode(headers, otherCode(code));
    expect(last.json().errors.code).toEqual([
      'Слишком много неверных попыток. Запросите новый код',
    ]);
  });

  it('100 simultaneous wrong checks get no further than five tries, and the right code is then refused', async () => {
    const { user, headers, code } = await userWithChangeCode();
    const wrong = otherCode(code);
    const answers = await Promise.all(Array.from({ length: 100 }, () => checkCode(headers, wrong)));
    const counted = answers.filter((answer) =>
      String(answer.json().errors?.code?.[0]).startsWith('Неверный код. Осталось попыток'),
    );
    // Four say how many are left, one says the tries are spent; no answer is a 200 or a 500.
    expect(answers.every((answer) => answer.statusCode === 400)).toBe(true);
    expect(counted.length).toBe(4);
    expect(await triesCounted(user.id)).toBe(5);
    expect((await checkCode(headers, code)).statusCode).toBe(400);
    expect((await change(headers, { code })).statusCode).toBe(400);
  });

  it('100 simultaneous checks of the right code leave its tries whole', async () => {
    const { user, headers, code } = await userWithChangeCode();
    const answers = await Promise.all(Array.from({ length: 100 }, () => checkCode(headers, code)));
    expect(answers.filter((answer) => answer.statusCode === 200).length).toBeGreaterThan(0);
    // However many were refused while five were in flight, every try was given back.
    expect(await triesCounted(user.id)).toBe(0);
    expect((await checkCode(headers, code)).statusCode).toBe(200);
    expect((await change(headers, { code })).statusCode).toBe(200);
  });

  it('is refused with the authenticator on, for a code never requested, and without a session', async () => {
    const withAuthenticator = await userWithAuthenticator();
    expect((await checkCode(withAuthenticator.headers, '123456')).statusCode).toBe(409);
    const stranger = await createSignedInUser(testApp);
    const none = await checkCode(stranger.headers, '123456');
    expect(none.statusCode).toBe(400);
    expect(none.json().errors.code).toEqual(['Неверный код']);
    expect((await checkCode({}, '123456')).statusCode).toBe(401);
    expect((await checkCode(stranger.headers, '12ab')).statusCode).toBe(400);
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
    expect((await login(user.userName, DEFAULT_PASSWORD)).statusCode).toBe(429);
    expect((await login(user.userName, NEW_PASSWORD)).statusCode).toBe(429);
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
