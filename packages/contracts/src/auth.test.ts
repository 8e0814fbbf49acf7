import { describe, expect, it } from 'vitest';
import { fieldMessagesOf, messagesOf } from '../test/support/schema-messages';
import {
  deviceSchema,
  handOffRequestSchema,
  loginAnswerSchema,
  loginFormSchema,
  loginRecoveryFormSchema,
  loginRequestSchema,
  loginTwoFactorFormSchema,
  registerFormSchema,
  registerFormToRequest,
  registerRequestSchema,
  splitFullName,
  usernameSchema,
  userSchema,
  verifyRegistrationRequestSchema,
  verifyTokenAnswerSchema,
  verifyTokenRequestSchema,
} from './auth';

describe('login', () => {
  const valid = { usernameOrEmail: 'gamer', password: 'x' };

  it('accepts a login and any non-empty password, with optional flags', () => {
    expect(fieldMessagesOf(loginRequestSchema, valid)).toEqual({});
    expect(
      fieldMessagesOf(loginRequestSchema, { ...valid, rememberMe: true, twoFactorCode: '123456' }),
    ).toEqual({});
  });

  it.each([[''], ['   '], [undefined]])('login %j → Введите логин', (usernameOrEmail) => {
    expect(fieldMessagesOf(loginFormSchema, { ...valid, usernameOrEmail })).toEqual({
      usernameOrEmail: ['Введите логин'],
    });
  });

  it.each([[''], [undefined]])('password %j → Введите пароль', (password) => {
    expect(fieldMessagesOf(loginFormSchema, { ...valid, password })).toEqual({
      password: ['Введите пароль'],
    });
  });

  it('with two-factor, the code is required and exactly 6 characters', () => {
    expect(
      fieldMessagesOf(loginTwoFactorFormSchema, { ...valid, twoFactorCode: '123456' }),
    ).toEqual({});
    expect(fieldMessagesOf(loginTwoFactorFormSchema, valid)).toEqual({
      twoFactorCode: ['Введите код подтверждения'],
    });
    expect(fieldMessagesOf(loginTwoFactorFormSchema, { ...valid, twoFactorCode: '' })).toEqual({
      twoFactorCode: ['Введите код подтверждения'],
    });
    for (const twoFactorCode of ['12345', '1234567']) {
      expect(fieldMessagesOf(loginTwoFactorFormSchema, { ...valid, twoFactorCode })).toEqual({
        twoFactorCode: ['Код должен содержать 6 символов'],
      });
    }
  });

  it('with a recovery code instead, the code has the recovery shape', () => {
    expect(
      fieldMessagesOf(loginRecoveryFormSchema, { ...valid, twoFactorCode: 'k3f9q-7wx2m' }),
    ).toEqual({});
    expect(fieldMessagesOf(loginRecoveryFormSchema, { ...valid, twoFactorCode: '' })).toEqual({
      twoFactorCode: ['Введите резервный код'],
    });
    expect(fieldMessagesOf(loginRecoveryFormSchema, { ...valid, twoFactorCode: '123456' })).toEqual(
      { twoFactorCode: ['Резервный код состоит из 10 букв и цифр, например k3f9q-7wx2m'] },
    );
  });

  it('the login form before two-factor ignores a code field', () => {
    expect(loginFormSchema.parse({ ...valid, twoFactorCode: '' })).toEqual(valid);
  });

  it('the request checks a code when one is sent', () => {
    expect(fieldMessagesOf(loginRequestSchema, { ...valid, twoFactorCode: '123' })).toEqual({
      twoFactorCode: ['Код должен содержать 6 символов'],
    });
  });

  it('answers either a token or the two-factor request', () => {
    expect(loginAnswerSchema.safeParse({ token: 't', userId: 'u' }).success).toBe(true);
    expect(loginAnswerSchema.safeParse({ requiresTwoFactor: true }).success).toBe(true);
    expect(loginAnswerSchema.safeParse({ requiresTwoFactor: false }).success).toBe(false);
  });
});

describe('username at registration', () => {
  it('strips spaces as typed', () => {
    expect(usernameSchema.parse(' pro gamer ')).toBe('progamer');
  });

  it.each([[''], ['   '], [undefined]])('%j → Никнейм обязателен', (input) => {
    expect(messagesOf(usernameSchema, input)).toEqual(['Никнейм обязателен']);
  });

  it('refuses Cyrillic', () => {
    expect(messagesOf(usernameSchema, 'игрок')).toEqual(['Никнейм не должен содержать кириллицу']);
    expect(messagesOf(usernameSchema, 'gamerЁ')).toEqual(['Никнейм не должен содержать кириллицу']);
  });

  it.each([
    ['Greek omicron', 'adminο'],
    ['Armenian o', 'pօrtal'],
    ['full-width letters', 'ＰｌａｙｅｒＯｎｅ'],
    ['an @', 'me@home'],
    ['a zero-width space', 'zero\u200bwidth'],
    ['a direction override', 'bad\u202ename'],
  ])('refuses %s: only Latin letters, digits, _ . -', (_what, input) => {
    expect(messagesOf(usernameSchema, input)).toEqual([
      'Никнейм может содержать только латинские буквы, цифры, _ . -',
    ]);
  });

  it('accepts Latin letters, digits, _ . -', () => {
    expect(messagesOf(usernameSchema, 'Pro_Gamer.2-x')).toEqual([]);
  });

  it('says only the Cyrillic message when Cyrillic and other scripts are mixed', () => {
    expect(messagesOf(usernameSchema, 'кοт')).toEqual(['Никнейм не должен содержать кириллицу']);
  });

  it('keeps the profile length 3–16', () => {
    expect(messagesOf(usernameSchema, 'abc')).toEqual([]);
    expect(messagesOf(usernameSchema, 'a'.repeat(16))).toEqual([]);
    expect(messagesOf(usernameSchema, 'ab')).toEqual(['Минимум 3 символа']);
    expect(messagesOf(usernameSchema, 'a'.repeat(17))).toEqual(['Максимум 16 символов']);
  });
});

describe('register form', () => {
  const valid = {
    email: 'user@example.com',
    name: 'Иван Петров',
    username: 'ivan',
    password: 'Abcdefg1',
    confirmPassword: 'Abcdefg1',
    consent: true,
  };

  it('accepts a complete form', () => {
    expect(fieldMessagesOf(registerFormSchema, valid)).toEqual({});
  });

  it.each([
    ['email', { email: 'nope' }, 'Некорректный email'],
    ['name', { name: '' }, 'Имя обязательно'],
    ['name', { name: '   ' }, 'Имя обязательно'],
    ['username', { username: '' }, 'Никнейм обязателен'],
    ['username', { username: 'иван' }, 'Никнейм не должен содержать кириллицу'],
    [
      'username',
      { username: 'ivαn' },
      'Никнейм может содержать только латинские буквы, цифры, _ . -',
    ],
    ['name', { name: 'Иван\u202eвортеП' }, 'Имя содержит недопустимые символы'],
    ['name', { name: 'Иван\u200b Петров' }, 'Имя содержит недопустимые символы'],
    [
      'password',
      { password: 'abc', confirmPassword: 'abc' },
      'Пароль должен содержать минимум 8 символов',
    ],
    ['confirmPassword', { confirmPassword: 'Abcdefg2' }, 'Пароли не совпадают'],
    ['consent', { consent: false }, 'Необходимо согласие на обработку персональных данных'],
  ])('%s: %j → %s', (field, change, message) => {
    const errors = fieldMessagesOf(registerFormSchema, { ...valid, ...change });
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]?.[0]).toBe(message);
  });

  it('shows the mismatch even while the password itself is still too weak', () => {
    expect(
      fieldMessagesOf(registerFormSchema, { ...valid, password: 'abc', confirmPassword: 'ab' })
        .confirmPassword,
    ).toEqual(['Пароли не совпадают']);
  });

  it('splits the name by spaces into first and last name', () => {
    expect(splitFullName('Иван')).toEqual({ firstName: 'Иван', lastName: '' });
    expect(splitFullName('  Иван   Петров ')).toEqual({ firstName: 'Иван', lastName: 'Петров' });
    expect(splitFullName('Анна Мария Петрова')).toEqual({
      firstName: 'Анна',
      lastName: 'Мария Петрова',
    });
  });

  it('turns the form into a register request the server accepts', () => {
    const request = registerFormToRequest(registerFormSchema.parse(valid));
    expect(request).toEqual({
      email: 'user@example.com',
      password: 'Abcdefg1',
      username: 'ivan',
      firstName: 'Иван',
      lastName: 'Петров',
    });
    expect(fieldMessagesOf(registerRequestSchema, request)).toEqual({});
  });
});

describe('register request', () => {
  const valid = {
    email: 'user@example.com',
    password: 'Abcdefg1',
    username: 'ivan',
    firstName: 'Иван',
    lastName: '',
  };

  it('accepts a one-word name', () => {
    expect(fieldMessagesOf(registerRequestSchema, valid)).toEqual({});
  });

  it('names every bad field with its message', () => {
    const errors = fieldMessagesOf(registerRequestSchema, {
      email: 'x',
      password: 'Abcdefgh',
      username: 'юзер',
      firstName: ' ',
    });
    expect(errors).toMatchObject({
      email: ['Некорректный email'],
      password: ['Пароль должен содержать хотя бы одну цифру (0-9)'],
      username: ['Никнейм не должен содержать кириллицу'],
      firstName: ['Имя обязательно'],
    });
    // A missing last name is an invalid type: zod's generic message.
    expect(errors.lastName).toHaveLength(1);
  });

  it('caps name lengths', () => {
    expect(fieldMessagesOf(registerRequestSchema, { ...valid, lastName: 'x'.repeat(65) })).toEqual({
      lastName: ['Максимум 64 символа'],
    });
  });

  it.each([
    ['a control character', 'Иван\u0007'],
    ['a right-to-left override', 'Иван\u202e'],
    ['a zero-width joiner', 'Ив\u200dан'],
    ['a byte order mark inside', 'Ив\ufeffан'],
    ['a line separator', 'Иван\u2028Пётр'],
    ['combining marks alone', '\u0300\u0301\u0302'],
    ['variation selectors alone', '\ufe0e\ufe0f'],
    ['a Hangul filler alone', '\u3164'],
  ])('refuses %s in the first and last name', (_what, name) => {
    const message = 'Имя содержит недопустимые символы';
    expect(
      fieldMessagesOf(registerRequestSchema, { ...valid, firstName: name, lastName: name }),
    ).toEqual({ firstName: [message], lastName: [message] });
  });
});

describe('verification and tokens', () => {
  it('verify-registration needs a six-digit code and an e-mail', () => {
    expect(
      fieldMessagesOf(verifyRegistrationRequestSchema, { code: '123456', email: 'a@b.ru' }),
    ).toEqual({});
    expect(fieldMessagesOf(verifyRegistrationRequestSchema, { code: '12345', email: 'a' })).toEqual(
      {
        code: ['Неверный код'],
        email: ['Некорректный email'],
      },
    );
  });

  it('verify-token needs a token and answers a user id, maybe a new token', () => {
    expect(messagesOf(verifyTokenRequestSchema, { token: '' })).toEqual(['Недействительный токен']);
    expect(verifyTokenAnswerSchema.safeParse({ userId: 'u' }).success).toBe(true);
    expect(verifyTokenAnswerSchema.safeParse({ userId: 'u', token: 't' }).success).toBe(true);
  });

  it('hand-off takes only an http(s) link', () => {
    expect(messagesOf(handOffRequestSchema, { link: 'https://host.example/order?x=1' })).toEqual(
      [],
    );
    expect(messagesOf(handOffRequestSchema, { link: 'javascript:alert(1)' })).toEqual([
      'Некорректная ссылка',
    ]);
    expect(messagesOf(handOffRequestSchema, { link: 'not a link' })).toEqual([
      'Некорректная ссылка',
    ]);
  });
});

describe('user and device answers', () => {
  const user = {
    id: 'u1',
    email: 'a@b.ru',
    phoneNamber: null,
    userName: 'ivan',
    firstName: 'Иван',
    middleName: null,
    lastName: '',
    avatarUrl: null,
    isTwoFactorEnabled: false,
    yandexId: null,
    telegramId: null,
    balance: 1790.5,
    balanceStars: 50,
    signInAlertsByEmail: true,
    hasPassword: true,
  };

  it('has exactly the agreed field names, phoneNamber included', () => {
    expect(Object.keys(userSchema.shape).sort()).toEqual(Object.keys(user).sort());
    expect(userSchema.safeParse(user).success).toBe(true);
  });

  it('drops fields it does not declare, so nothing undeclared leaves the server', () => {
    expect(userSchema.parse({ ...user, passwordHash: 'secret' })).not.toHaveProperty(
      'passwordHash',
    );
  });

  it('a device carries an ISO time and maybe no IP address', () => {
    const device = {
      id: 'd1',
      userAgent: 'Mozilla/5.0',
      ipAddress: null,
      lastActivity: '2025-03-01T10:00:00.000Z',
      isCurrent: true,
    };
    expect(deviceSchema.safeParse(device).success).toBe(true);
    expect(deviceSchema.safeParse({ ...device, lastActivity: 'yesterday' }).success).toBe(false);
  });
});
