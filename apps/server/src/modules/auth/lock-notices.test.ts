// What the account lock tells: the sign-in answers that the login waits (the same for a login no
// account has), and the owner of a real account gets one letter per wait.

import { like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_API, addressSequence } from '../../../test/support/auth-helpers.js';
import { createUser, DEFAULT_PASSWORD, lettersTo } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import { describeMoment } from '../security-log/index.js';

let testApp: TestApp;
const nextIp = addressSequence('10.41');

beforeAll(async () => {
  testApp = await createTestApp();
});

function login(usernameOrEmail: string, password: string) {
  return testApp.app.inject({
    method: 'POST',
    url: `${AUTH_API}/login`,
    payload: { usernameOrEmail, password },
    remoteAddress: nextIp(),
  });
}

async function lockLetters(address: string) {
  return (await lettersTo(testApp, address)).filter((letter) =>
    letter.subject.endsWith('вход в аккаунт приостановлен'),
  );
}

describe('the account lock', () => {
  it('answers 429 with the minutes left and mails the owner once, with the end and a reset link', async () => {
    const user = await createUser(testApp, { userName: 'LockLetter' });
    const startedAt = testApp.clock.now();
    for (let i = 0; i < 10; i++) {
      expect((await login('lockletter', `Wrong-Pass${i}`)).statusCode).toBe(401);
    }

    const letters = await lockLetters(user.email);
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    const end = new Date(startedAt.getTime() + 60_000);
    expect(letter!.text).toContain(describeMoment(startedAt));
    expect(letter!.text).toContain(describeMoment(end));
    expect(letter!.text).toContain('(МСК)');
    expect(letter!.text).toContain(`${testApp.config.PUBLIC_URL}/reset-password`);
    expect(letter!.html).toContain(`${testApp.config.PUBLIC_URL}/reset-password`);

    // While it waits, even the right password is refused with the wait in minutes.
    testApp.clock.advance(1_000);
    const paused = await login('LOCKLETTER', DEFAULT_PASSWORD);
    expect(paused.statusCode).toBe(429);
    expect(paused.headers['retry-after']).toBe('59');
    expect(paused.json()).toEqual({
      message:
        'Вход для этого логина приостановлен на 1 мин. из-за неверных попыток. Забыли пароль?',
      reason: 'login_paused',
    });
    // Refused attempts start no new wait: still one letter.
    expect(await lockLetters(user.email)).toHaveLength(1);

    // The next wait (2 minutes) is a new lock and its own letter.
    testApp.clock.advance(60_000);
    expect((await login('lockletter', 'Wrong-Pass11')).statusCode).toBe(401);
    const again = await login('lockletter', DEFAULT_PASSWORD);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('120');
    expect(again.json().message).toContain('на 2 мин.');
    expect(await lockLetters(user.email)).toHaveLength(2);
  });

  it('sends one letter for 100 parallel wrong passwords that start one lock', async () => {
    const user = await createUser(testApp, { userName: 'LockBurst' });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login('lockburst', `Wrong-Pass${i}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(90);
    expect(await lockLetters(user.email)).toHaveLength(1);
  });

  it('locks a login no account has alike, answers exactly the same and mails nobody', async () => {
    const user = await createUser(testApp, { userName: 'RealTwin' });
    const lettersBefore = await allLockLetters();
    for (let i = 0; i < 10; i++) await login('ghosttwin', `Wrong-Pass${i}`);
    expect(await allLockLetters()).toBe(lettersBefore);

    for (let i = 0; i < 10; i++) await login('realtwin', `Wrong-Pass${i}`);
    expect(await lockLetters(user.email)).toHaveLength(1);
    expect(await allLockLetters()).toBe(lettersBefore + 1);

    const real = await login('realtwin', DEFAULT_PASSWORD);
    const ghost = await login('ghosttwin', DEFAULT_PASSWORD);
    expect(real.statusCode).toBe(429);
    expect(ghost.statusCode).toBe(real.statusCode);
    expect(ghost.body).toBe(real.body);
    expect(ghost.headers['retry-after']).toBe(real.headers['retry-after']);
    expect(ghost.headers['content-type']).toBe(real.headers['content-type']);
  });
});

/** Lock letters in the whole outbox, to whomever. */
async function allLockLetters(): Promise<number> {
  const rows = await testApp.database.db
    .select({ subject: mailOutbox.subject })
    .from(mailOutbox)
    .where(like(mailOutbox.subject, '%вход в аккаунт приостановлен'));
  return rows.length;
}
