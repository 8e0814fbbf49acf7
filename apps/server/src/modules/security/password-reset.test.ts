import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  otherCode,
  passwordHashOf,
  sessionStatus,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import {
  createUser,
  DEFAULT_PASSWORD,
  latestCodeTo,
  lettersTo,
  signIn,
} from '../../../test/support/fixtures.js';
import { codeIn, startSmtpServer } from '../../../test/support/smtp-server.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { oneTimeCodes } from '../auth/schema.js';

const NEW_PASSWORD = 'Quartz-Lantern7';
const SENT = 'Если эта почта зарегистрирована, мы отправили на неё код для сброса пароля';
const MINUTE = 60_000;

let testApp: TestApp;
const nextIp = addressSequence('10.5');

beforeAll(async () => {
  testApp = await createTestApp();
});

function forgot(email: string, remoteAddress = nextIp(), app = testApp.app) {
  return app.inject({
    method: 'POST',
    url: `${API}/forgot-password`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(email),
    remoteAddress,
  });
}

function reset(body: Record<string, unknown>, app = testApp.app) {
  return app.inject({
    method: 'POST',
    url: `${API}/reset-password-with-code`,
    payload: { newPassword: NEW_PASSWORD, ...body },
    remoteAddress: nextIp(),
  });
}

function logoutAll(body: Record<string, unknown>) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/logout-all`,
    payload: body,
    remoteAddress: nextIp(),
  });
}

function login(usernameOrEmail: string, password: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: { usernameOrEmail, password },
    remoteAddress: nextIp(),
  });
}

/** A user who asked for a reset code; answers the user and the code from the letter. */
async function userWithResetCode() {
  const user = await createUser(testApp);
  expect((await forgot(user.email)).statusCode).toBe(200);
  return { user, code: await latestCodeTo(testApp, user.email) };
}

describe('forgot-password', () => {
  it('mails a code to a known confirmed address', async () => {
    const user = await createUser(testApp, { email: 'Olga.Reset@Example.com' });
    // Any case and spacing of the address finds the account.
    const response = await forgot('  olga.reset@example.COM ');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: SENT });
    const [letter] = await lettersTo(testApp, user.email);
    expect(letter?.subject).toBe('GameHost: код для сброса пароля');
    expect(codeIn(letter!.text)).toMatch(/^\d{6}$/);
  });

  it('answers exactly the same for an unknown or unconfirmed address, and mails nothing', async () => {
    const known = await createUser(testApp);
    const unconfirmed = await createUser(testApp, { confirmedAt: null });
    const answers = [
      await forgot(known.email),
      await forgot('nobody-here@example.com'),
      await forgot(unconfirmed.email),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(answers[0]!.body);
      expect(answer.headers['content-type']).toBe(answers[0]!.headers['content-type']);
    }
    expect(await lettersTo(testApp, 'nobody-here@example.com')).toEqual([]);
    expect(await lettersTo(testApp, unconfirmed.email)).toEqual([]);
    expect(await lettersTo(testApp, known.email)).toHaveLength(1);
    // The same work was done for the unknown ones, and none of it kept.
    const codes = await testApp.database.db
      .select({ subject: oneTimeCodes.subject })
      .from(oneTimeCodes)
      .where(eq(oneTimeCodes.purpose, 'password-reset'));
    expect(codes.map((row) => row.subject)).not.toContain('unknown:nobody-here@example.com');
    expect(codes.map((row) => row.subject)).toContain(known.id);
  });

  it('inside the resend countdown answers the same and mails nothing new', async () => {
    const user = await createUser(testApp);
    await forgot(user.email);
    const again = await forgot(user.email);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ message: SENT });
    expect(await lettersTo(testApp, user.email)).toHaveLength(1);
    testApp.clock.advance(61_000);
    await forgot(user.email);
    expect(await lettersTo(testApp, user.email)).toHaveLength(2);
  });

  it('takes the address as { email } too, answering and mailing as for the bare string', async () => {
    const user = await createUser(testApp, { email: 'Pavel.Reset@Example.com' });
    const bare = await forgot('nobody-at-all@example.com');
    const response = await testApp.app.inject({
      method: 'POST',
      url: `${API}/forgot-password`,
      payload: { email: '  pavel.reset@example.COM ' },
      remoteAddress: nextIp(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(bare.body);
    const [letter] = await lettersTo(testApp, user.email);
    expect(letter?.subject).toBe('GameHost: код для сброса пароля');
  });

  it('refuses a malformed address with the e-mail message', async () => {
    const malformed = [
      'not-an-email',
      { email: 'not-an-email' },
      { email: 42 },
      {},
      { mail: 'a@b.cd' },
      42,
      ['a@b.cd'],
    ];
    for (const payload of malformed.map((body) => JSON.stringify(body))) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: `${API}/forgot-password`,
        headers: { 'content-type': 'application/json' },
        payload,
        remoteAddress: nextIp(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Некорректный email');
    }
  });

  it('limits one source address (429), whatever the addresses asked for', async () => {
    const ip = nextIp();
    for (let index = 0; index < 10; index++) {
      expect((await forgot(`someone-${index}@example.com`, ip)).statusCode).toBe(200);
    }
    const limited = await forgot('someone-else@example.com', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('reset-password-with-code', () => {
  it('sets the new password: it signs in, the old one does not; the owner is told', async () => {
    const { user, code } = await userWithResetCode();
    const response = await reset({ email: user.email, code });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Пароль обновлён' });
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(401);
    const [letter] = await lettersTo(testApp, user.email);
    expect(letter?.subject).toBe('GameHost: пароль изменён');
  });

  it('refuses a wrong code and changes nothing', async () => {
    const { user, code } = await userWithResetCode();
    const before = await passwordHashOf(testApp, user.id);
    const response = await reset({ email: user.email, code: otherCode(code) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Неверный код',
      errors: { code: ['Неверный код'] },
    });
    expect(await passwordHashOf(testApp, user.id)).toBe(before);
  });

  it('an unknown address fails exactly like a wrong code', async () => {
    const { user, code } = await userWithResetCode();
    const wrong = await reset({ email: user.email, code: otherCode(code) });
    const unknown = await reset({ email: 'ghost@example.com', code });
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
  });

  it('a code works once', async () => {
    const { user, code } = await userWithResetCode();
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    const again = await reset({ email: user.email, code, newPassword: 'Another-Pass9' });
    expect(again.statusCode).toBe(400);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('two simultaneous submissions of the right code: exactly one wins', async () => {
    const { user, code } = await userWithResetCode();
    const answers = await Promise.all([
      reset({ email: user.email, code, newPassword: 'First-Winner1' }),
      reset({ email: user.email, code, newPassword: 'Second-Winner2' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    const winner = answers[0]!.statusCode === 200 ? 'First-Winner1' : 'Second-Winner2';
    expect((await login(user.email, winner)).statusCode).toBe(200);
  });

  it('after five wrong tries even the right code is dead', async () => {
    const { user, code } = await userWithResetCode();
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await reset({ email: user.email, code: otherCode(code) })).statusCode).toBe(400);
    }
    const response = await reset({ email: user.email, code });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Слишком много неверных попыток. Запросите новый код');
    expect((await login(user.email, DEFAULT_PASSWORD)).statusCode).toBe(200);
  });

  it('a code older than ten minutes is refused', async () => {
    const { user, code } = await userWithResetCode();
    testApp.clock.advance(10 * MINUTE + 1_000);
    const response = await reset({ email: user.email, code });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Срок действия кода истёк. Запросите новый код');
  });

  it('refuses a password breaking the rules, and the code stays usable', async () => {
    const user = await createUser(testApp, { userName: 'Kestrel9Run' });
    await forgot(user.email);
    const code = await latestCodeTo(testApp, user.email);
    const cases = [
      ['short1A', 'Пароль должен содержать минимум 8 символов'],
      ['lowercase-only1', 'Пароль должен содержать хотя бы одну заглавную букву (A-Z)'],
      ['Password1', 'Этот пароль слишком распространён, выберите другой'],
      // The username in other letter case.
      ['KESTREL9run', 'Пароль не должен совпадать с никнеймом или почтой'],
    ] as const;
    for (const [newPassword, message] of cases) {
      const response = await reset({ email: user.email, code, newPassword });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.newPassword).toEqual([message]);
    }
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
  });

  it('with logoutEverywhere ends every session of the account in the same call', async () => {
    const { user, code } = await userWithResetCode();
    const laptop = await signIn(testApp, user.id);
    const phone = await signIn(testApp, user.id);
    const bystander = await signIn(testApp, (await createUser(testApp)).id);
    expect((await reset({ email: user.email, code, logoutEverywhere: true })).statusCode).toBe(200);
    expect(await sessionStatus(testApp, laptop.headers)).toBe(401);
    expect(await sessionStatus(testApp, phone.headers)).toBe(401);
    expect(await sessionStatus(testApp, bystander.headers)).toBe(200);
    expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('with logoutEverywhere, a failure after the sign-out leaves nothing half-done', async () => {
    const { user, code } = await userWithResetCode();
    const laptop = await signIn(testApp, user.id);
    const before = await passwordHashOf(testApp, user.id);
    // The "password changed" letter is written last in the reset's transaction.
    const enqueue = vi
      .spyOn(testApp.app.deps.mail, 'enqueue')
      .mockRejectedValueOnce(new Error('outbox unavailable'));
    try {
      const failed = await reset({ email: user.email, code, logoutEverywhere: true });
      expect(failed.statusCode).toBe(500);
    } finally {
      enqueue.mockRestore();
    }
    expect(await passwordHashOf(testApp, user.id)).toBe(before);
    expect(await sessionStatus(testApp, laptop.headers)).toBe(200);
    // The code was not spent either: the retry does the whole reset.
    expect((await reset({ email: user.email, code, logoutEverywhere: true })).statusCode).toBe(200);
    expect(await sessionStatus(testApp, laptop.headers)).toBe(401);
  });

  it('leaves an enabled authenticator on', async () => {
    const { user, code } = await userWithResetCode();
    const session = await signIn(testApp, user.id);
    await turnOnAuthenticator(testApp, session.headers);

    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    expect(await testApp.app.deps.twoFactor.isEnabled(user.id)).toBe(true);
    expect((await login(user.email, NEW_PASSWORD)).json()).toEqual({ requiresTwoFactor: true });
  });
});

describe('logout-all with { email, code } after a reset', () => {
  it('ends every session of the account at once', async () => {
    const { user, code } = await userWithResetCode();
    const laptop = await signIn(testApp, user.id);
    const phone = await signIn(testApp, user.id);
    const bystander = await signIn(testApp, (await createUser(testApp)).id);
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    // The reset alone keeps sessions: ending them is the step the checkbox asks for.
    expect(await sessionStatus(testApp, laptop.headers)).toBe(200);

    const response = await logoutAll({ email: user.email.toUpperCase(), code });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Вы вышли из всех активных сеансов' });
    expect(await sessionStatus(testApp, laptop.headers)).toBe(401);
    expect(await sessionStatus(testApp, phone.headers)).toBe(401);
    expect(await sessionStatus(testApp, bystander.headers)).toBe(200);
  });

  it('is accepted once', async () => {
    const { user, code } = await userWithResetCode();
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    expect((await logoutAll({ email: user.email, code })).statusCode).toBe(200);
    const later = await signIn(testApp, user.id);
    const again = await logoutAll({ email: user.email, code });
    expect(again.statusCode).toBe(400);
    expect(await sessionStatus(testApp, later.headers)).toBe(200);
  });

  it('is refused before the reset, with a wrong code, and for another account', async () => {
    const { user, code } = await userWithResetCode();
    const other = await createUser(testApp);
    const session = await signIn(testApp, user.id);
    const otherSession = await signIn(testApp, other.id);
    // The code was mailed but not used for a reset yet.
    expect((await logoutAll({ email: user.email, code })).statusCode).toBe(400);
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    expect((await logoutAll({ email: user.email, code: otherCode(code) })).statusCode).toBe(400);
    expect((await logoutAll({ email: other.email, code })).statusCode).toBe(400);
    expect((await logoutAll({ email: 'ghost@example.com', code })).statusCode).toBe(400);
    expect(await sessionStatus(testApp, session.headers)).toBe(200);
    expect(await sessionStatus(testApp, otherSession.headers)).toBe(200);
  });

  it('allows five tries, then even the right code is refused', async () => {
    const { user, code } = await userWithResetCode();
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    const session = await signIn(testApp, user.id);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await logoutAll({ email: user.email, code: otherCode(code) })).statusCode).toBe(400);
    }
    expect((await logoutAll({ email: user.email, code })).statusCode).toBe(400);
    expect(await sessionStatus(testApp, session.headers)).toBe(200);
  });

  it('expires ten minutes after the reset', async () => {
    const { user, code } = await userWithResetCode();
    expect((await reset({ email: user.email, code })).statusCode).toBe(200);
    const session = await signIn(testApp, user.id);
    testApp.clock.advance(10 * MINUTE + 1_000);
    expect((await logoutAll({ email: user.email, code })).statusCode).toBe(400);
    expect(await sessionStatus(testApp, session.headers)).toBe(200);
  });

  it('refuses malformed bodies with field messages', async () => {
    const response = await logoutAll({ email: 'nope', code: '12' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      email: ['Некорректный email'],
      code: ['Неверный код'],
    });
  });
});

describe('over a real SMTP exchange', () => {
  it('the code arrives by SMTP and resets the password', async () => {
    const smtp = await startSmtpServer();
    const mailed = await createTestApp({ config: { SMTP_URL: smtp.url } });
    const user = await createUser(mailed, { email: 'smtp.reset@example.com' });
    expect((await forgot(user.email, nextIp(), mailed.app)).statusCode).toBe(200);
    const letter = await smtp.waitForLetter(user.email);
    expect(letter.subject).toBe('GameHost: код для сброса пароля');
    const code = codeIn(letter.text);
    const response = await reset({ email: user.email, code }, mailed.app);
    expect(response.statusCode).toBe(200);
    const notice = await smtp.waitForLetter(user.email);
    expect(notice.subject).toBe('GameHost: пароль изменён');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
  });
});
