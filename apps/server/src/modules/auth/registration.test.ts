import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_API as API, addressSequence } from '../../../test/support/auth-helpers.js';
import { createUser, latestCodeTo, lettersTo } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { users } from '../accounts/schema.js';

const PASSWORD = 'Zx9-Plover-Harp';

let testApp: TestApp;
const nextIp = addressSequence('10.1');

beforeAll(async () => {
  testApp = await createTestApp();
});

function register(body: Record<string, unknown>, remoteAddress = nextIp()) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/register`,
    payload: {
      email: 'ivan@example.com',
      password: PASSWORD,
      username: 'ivan',
      firstName: 'Иван',
      lastName: 'Петров',
      ...body,
    },
    remoteAddress,
  });
}

function verify(email: string, code: string, remoteAddress = nextIp()) {
  return testApp.app.inject({
    method: 'POST',
    url: `${API}/verify-registration`,
    payload: { email, code },
    remoteAddress,
  });
}

async function userRow(emailKey: string) {
  const [row] = await testApp.database.db.select().from(users).where(eq(users.emailKey, emailKey));
  return row;
}

describe('register and verify-registration', () => {
  it('creates an unconfirmed account, mails a code, and confirming signs in', async () => {
    const response = await register({ email: ' Anna@Example.com ', username: 'anna_k' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Код подтверждения отправлен на почту' });

    const row = await userRow('anna@example.com');
    expect(row).toMatchObject({ email: 'Anna@Example.com', userName: 'anna_k', confirmedAt: null });
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);

    const [letter] = await lettersTo(testApp, 'anna@example.com');
    expect(letter?.subject).toBe('GameHost: код подтверждения регистрации');
    expect(letter?.text).toContain('anna_k');
    expect(letter?.html).toContain('<html lang="ru">');
    const code = await latestCodeTo(testApp, 'anna@example.com');

    const confirmed = await verify('ANNA@example.com', code);
    expect(confirmed.statusCode).toBe(200);
    const body = confirmed.json();
    expect(body).toEqual({
      message: 'Почта подтверждена, добро пожаловать!',
      userId: row!.id,
      token: expect.any(String),
    });
    expect((await userRow('anna@example.com'))?.confirmedAt).toBeInstanceOf(Date);

    const me = await testApp.app.inject({
      method: 'POST',
      url: `${API}/user`,
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: row!.id, userName: 'anna_k', email: 'Anna@Example.com' });
  });

  it('refuses a wrong code with "Неверный код" and changes nothing', async () => {
    await register({ email: 'wrong@example.com', username: 'wrong_code' });
    const code = await latestCodeTo(testApp, 'wrong@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    const response = await verify('wrong@example.com', wrong);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Неверный код',
      errors: { code: ['Неверный код'] },
    });
    expect((await userRow('wrong@example.com'))?.confirmedAt).toBeNull();
    // The right code still works afterwards.
    expect((await verify('wrong@example.com', code)).statusCode).toBe(200);
  });

  it('takes the code as people type it: «123 456», with a dash, full-width digits', async () => {
    await register({ email: 'typed@example.com', username: 'typed_code' });
    const code = await latestCodeTo(testApp, 'typed@example.com');
    const fullWidth = [...code].map((digit) => String.fromCharCode(0xff10 + Number(digit)));
    const typed = ` ${fullWidth.slice(0, 3).join('')} - ${fullWidth.slice(3).join('')}\n`;
    const response = await verify('typed@example.com', typed);
    expect(response.statusCode).toBe(200);
    expect((await userRow('typed@example.com'))?.confirmedAt).not.toBeNull();
  });

  it('refuses a code used once already', async () => {
    await register({ email: 'reuse@example.com', username: 'reuse_me' });
    const code = await latestCodeTo(testApp, 'reuse@example.com');
    expect((await verify('reuse@example.com', code)).statusCode).toBe(200);
    const again = await verify('reuse@example.com', code);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Неверный код');
  });

  it('refuses an expired code (10 minutes)', async () => {
    await register({ email: 'late@example.com', username: 'late_one' });
    const code = await latestCodeTo(testApp, 'late@example.com');
    testApp.clock.advance(10 * 60_000 + 1);
    const response = await verify('late@example.com', code);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Срок действия кода истёк. Запросите новый код');
    expect((await userRow('late@example.com'))?.confirmedAt).toBeNull();
  });

  it('kills the code on the sixth try: five wrong, then even the right one fails', async () => {
    await register({ email: 'guess@example.com', username: 'guesser' });
    const code = await latestCodeTo(testApp, 'guess@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await verify('guess@example.com', wrong)).json().message).toBe('Неверный код');
    }
    const sixth = await verify('guess@example.com', code);
    expect(sixth.statusCode).toBe(400);
    expect(sixth.json().message).toBe('Слишком много неверных попыток. Запросите новый код');
    expect((await userRow('guess@example.com'))?.confirmedAt).toBeNull();
  });

  it('accepts exactly one of two simultaneous submissions of the right code', async () => {
    await register({ email: 'race@example.com', username: 'racer' });
    const code = await latestCodeTo(testApp, 'race@example.com');
    const answers = await Promise.all([
      verify('race@example.com', code),
      verify('race@example.com', code),
      verify('race@example.com', code),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('resends for the same unconfirmed e-mail after the countdown: 60 s, then 30 s', async () => {
    const ip = nextIp();
    expect((await register({ email: 'again@example.com', username: 'again' }, ip)).statusCode).toBe(
      200,
    );
    const first = await latestCodeTo(testApp, 'again@example.com');

    testApp.clock.advance(20_000);
    const early = await register({ email: 'again@example.com', username: 'again' }, ip);
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('40');
    // The code mailed 20 s ago is still good: the answer says so, and the web opens its step.
    expect(early.json()).toEqual({
      message: 'Повторно отправить код можно через 40 с',
      reason: 'code_pending',
    });
    expect(await lettersTo(testApp, 'again@example.com')).toHaveLength(1);

    testApp.clock.advance(40_000);
    expect((await register({ email: 'again@example.com', username: 'again' }, ip)).statusCode).toBe(
      200,
    );
    const second = await latestCodeTo(testApp, 'again@example.com');
    expect(await lettersTo(testApp, 'again@example.com')).toHaveLength(2);

    // After a resend the countdown is 30 s.
    testApp.clock.advance(29_000);
    const tooSoon = await register({ email: 'again@example.com', username: 'again' }, ip);
    expect(tooSoon.statusCode).toBe(429);
    expect(tooSoon.headers['retry-after']).toBe('1');
    testApp.clock.advance(1_000);
    expect((await register({ email: 'again@example.com', username: 'again' }, ip)).statusCode).toBe(
      200,
    );

    // The new code replaced the old one.
    const third = await latestCodeTo(testApp, 'again@example.com');
    if (first !== third) expect((await verify('again@example.com', first)).statusCode).toBe(400);
    if (second !== third) expect((await verify('again@example.com', second)).statusCode).toBe(400);
    expect((await verify('again@example.com', third)).statusCode).toBe(200);
  });

  it('caps resends per hour', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 7; i++) {
      answers.push((await register({ email: 'often@example.com', username: 'often' })).statusCode);
      testApp.clock.advance(61_000);
    }
    expect(answers).toEqual([200, 200, 200, 200, 200, 200, 429]);
    const capped = await register({ email: 'often@example.com', username: 'often' });
    expect(capped.json().message).toMatch(
      /^Слишком много запросов кода\. Попробуйте через \d+ мин$/,
    );
    testApp.clock.advance(60 * 60_000);
    expect((await register({ email: 'often@example.com', username: 'often' })).statusCode).toBe(
      200,
    );
  });

  it('answers 409 with a clear message for a taken username, case and older look-alikes included', async () => {
    await createUser(testApp, { userName: 'Taken_Name', userNameKey: 'taken_name' });
    // A full-width name from before the character rule still holds its folded key.
    await createUser(testApp, { userName: 'ＯＬＤ_name', userNameKey: 'old_name' });
    for (const username of ['taken_name', 'TAKEN_NAME', 'Old_Name']) {
      const response = await register({ email: `${username.length}x@example.com`, username });
      expect(response.statusCode, username).toBe(409);
      expect(response.json()).toEqual({
        message: 'Этот никнейм уже занят',
        errors: { username: ['Этот никнейм уже занят'] },
      });
    }
  });

  it('answers a taken e-mail exactly like success and writes to its owner instead', async () => {
    const owner = await createUser(testApp, { email: 'owner@example.com' });
    const taken = await register({ email: 'OWNER@example.com', username: 'squatter' });
    const fresh = await register({ email: 'newcomer@example.com', username: 'newcomer' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.json()).toEqual(fresh.json());
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    const [letter, ...more] = await lettersTo(testApp, 'owner@example.com');
    expect(more).toHaveLength(0);
    expect(letter?.subject).toBe('GameHost: попытка регистрации с вашей почтой');
    expect(letter?.text).not.toMatch(/\b\d{6}\b/);
    // Nothing about the account changed, and no second account was made.
    const row = await userRow('owner@example.com');
    expect(row).toMatchObject({
      id: owner.id,
      userName: owner.userName,
      passwordHash: owner.passwordHash,
    });
    expect(await userRow('owner@example.com')).toBeDefined();

    // A repeat inside the countdown looks the same for both, too.
    const takenAgain = await register({ email: 'owner@example.com', username: 'squatter' });
    const freshAgain = await register({ email: 'newcomer@example.com', username: 'newcomer' });
    expect(takenAgain.statusCode).toBe(429);
    expect(freshAgain.statusCode).toBe(429);
    expect(takenAgain.json()).toEqual(freshAgain.json());
  });

  it('updates the details of an unconfirmed account on a new registration', async () => {
    await register({ email: 'change@example.com', username: 'first_try', firstName: 'Пётр' });
    testApp.clock.advance(61_000);
    await register({ email: 'change@example.com', username: 'second_try', firstName: 'Павел' });
    const row = await userRow('change@example.com');
    expect(row).toMatchObject({ userName: 'second_try', firstName: 'Павел' });
    // The first name is free again.
    const other = await register({ email: 'other@example.com', username: 'first_try' });
    expect(other.statusCode).toBe(200);
  });

  it('lets an unconfirmed account hold its username for a day, then frees it', async () => {
    const holder = await createUser(testApp, {
      email: 'holder@example.com',
      userName: 'held_name',
      userNameKey: 'held_name',
      confirmedAt: null,
      updatedAt: testApp.clock.now(),
    });
    expect((await register({ email: 'wants@example.com', username: 'Held_Name' })).statusCode).toBe(
      409,
    );
    testApp.clock.advance(24 * 3600_000 + 1);
    expect((await register({ email: 'wants@example.com', username: 'Held_Name' })).statusCode).toBe(
      200,
    );
    expect(await userRow('holder@example.com')).toBeUndefined();
    expect((await userRow('wants@example.com'))?.userName).toBe('Held_Name');
    expect(holder.id).not.toBe((await userRow('wants@example.com'))?.id);
  });

  it('applies the password rules on the server: the form rule, the blocklist, not the login', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ password: 'short1A' }, 'Пароль должен содержать минимум 8 символов'],
      [{ password: 'nouppercase1' }, 'Пароль должен содержать хотя бы одну заглавную букву (A-Z)'],
      [{ password: 'Password1' }, 'Этот пароль слишком распространён, выберите другой'],
      [{ password: 'Qwerty123' }, 'Этот пароль слишком распространён, выберите другой'],
      [
        { username: 'Gamer2024X', password: 'gAMER2024x' },
        'Пароль не должен совпадать с никнеймом или почтой',
      ],
      [
        { email: 'Mail1Box@x.io', password: 'mail1box@X.IO' },
        'Пароль не должен совпадать с никнеймом или почтой',
      ],
    ];
    for (const [body, message] of cases) {
      const response = await register({ email: 'rules@example.com', username: 'rules', ...body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors.password).toContain(message);
    }
    expect(await userRow('rules@example.com')).toBeUndefined();
  });

  it('applies the username rules: Latin letters, digits, _ . - only, and the length', async () => {
    const notLatin = 'Никнейм может содержать только латинские буквы, цифры, _ . -';
    const cases: Array<[string, string]> = [
      ['игрок', 'Никнейм не должен содержать кириллицу'],
      ['me@home', notLatin],
      ['zero\u200bwidth', notLatin],
      // Greek omicron and Armenian o: 'admin' and 'portal' look-alikes.
      ['admin\u03bf', notLatin],
      ['p\u0585rtal', notLatin],
      ['ＰｌａｙｅｒＯｎｅ', notLatin],
      ['ab', 'Минимум 3 символа'],
      ['a'.repeat(17), 'Максимум 16 символов'],
    ];
    for (const [username, message] of cases) {
      const response = await register({ email: 'names@example.com', username });
      expect(response.statusCode, username).toBe(400);
      expect(response.json().errors.username, username).toContain(message);
    }
    // Spaces are stripped, as the form strips them while typing.
    expect(
      (await register({ email: 'spaces@example.com', username: ' sp ace d ' })).statusCode,
    ).toBe(200);
    expect((await userRow('spaces@example.com'))?.userName).toBe('spaced');
    expect(
      (await register({ email: 'latin@example.com', username: 'Pro_Gamer.2-x' })).statusCode,
    ).toBe(200);
  });

  it('refuses control, direction-changing and zero-width characters in the names, and names that render as nothing', async () => {
    for (const name of ['Иван\u202e', 'Ив\u200dан', 'Ив\u0007ан', '\u0301\u0302', '\u3164']) {
      const response = await register({
        email: 'bidi@example.com',
        username: 'bidi',
        firstName: name,
        lastName: name,
      });
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expect(response.json().errors).toEqual({
        firstName: ['Имя содержит недопустимые символы'],
        lastName: ['Имя содержит недопустимые символы'],
      });
    }
    expect(await userRow('bidi@example.com')).toBeUndefined();
  });

  it('limits registrations per source address', async () => {
    const ip = nextIp();
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) {
      codes.push(
        (await register({ email: `flood${i}@example.com`, username: `flood${i}` }, ip)).statusCode,
      );
    }
    expect(codes.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(codes[20]).toBe(429);
  });
});

describe('verify-registration per source address', () => {
  it('refuses an address that checks too many codes', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await verify(`nobody${i}@example.com`, '123456', ip)).statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
