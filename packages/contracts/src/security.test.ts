import { describe, expect, it } from 'vitest';
import { fieldMessagesOf, messagesOf } from '../test/support/schema-messages';
import { loginRequestSchema, loginTwoFactorFormSchema } from './auth';
import {
  forgotPasswordEmail,
  forgotPasswordRequestSchema,
  logoutAllRequestSchema,
  passwordChangeFormSchema,
  passwordChangeRequestSchema,
  recoveryCodeSchema,
  recoveryCodesAnswerSchema,
  resetEmailFormSchema,
  resetPasswordFormSchema,
  resetPasswordRequestSchema,
  twoFactorCodeRequestSchema,
  twoFactorConfirmRequestSchema,
  twoFactorEnableAnswerSchema,
  twoFactorSetupFormSchema,
} from './security';

describe('reset step 1', () => {
  it('forgot-password takes the e-mail itself as the body, or { email }', () => {
    for (const body of [' a@b.ru ', { email: ' a@b.ru ' }]) {
      expect(forgotPasswordEmail(forgotPasswordRequestSchema.parse(body))).toBe('a@b.ru');
    }
    for (const body of ['a@', { email: 'a@' }, { mail: 'a@b.ru' }, 42, null]) {
      expect(messagesOf(forgotPasswordRequestSchema, body)).toEqual(['Некорректный email']);
    }
  });

  it('the form shows the e-mail message', () => {
    expect(fieldMessagesOf(resetEmailFormSchema, { email: 'a@b.ru' })).toEqual({});
    expect(fieldMessagesOf(resetEmailFormSchema, { email: '' })).toEqual({
      email: ['Некорректный email'],
    });
  });
});

describe('reset step 2 form', () => {
  const valid = {
    code: '123456',
    newPassword: 'Abcdefg1',
    repeatPassword: 'Abcdefg1',
    logoutAll: true,
  };

  it('accepts a complete form', () => {
    expect(fieldMessagesOf(resetPasswordFormSchema, valid)).toEqual({});
  });

  it.each([[''], ['12345'], ['     ']])('code %j → Введите код, отправленный на почту', (code) => {
    expect(fieldMessagesOf(resetPasswordFormSchema, { ...valid, code })).toEqual({
      code: ['Введите код, отправленный на почту'],
    });
  });

  it('repeat must equal the new password', () => {
    expect(
      fieldMessagesOf(resetPasswordFormSchema, { ...valid, repeatPassword: 'Abcdefg2' }),
    ).toEqual({ repeatPassword: ['Пароли не совпадают'] });
  });

  it('the new password follows the rule, first message first', () => {
    expect(
      fieldMessagesOf(resetPasswordFormSchema, {
        ...valid,
        newPassword: 'abcdefg1',
        repeatPassword: 'abcdefg1',
      }),
    ).toEqual({ newPassword: ['Пароль должен содержать хотя бы одну заглавную букву (A-Z)'] });
  });
});

describe('reset and logout-all requests', () => {
  const valid = { email: 'a@b.ru', newPassword: 'Abcdefg1', code: '123456' };

  it('accepts a valid reset', () => {
    expect(fieldMessagesOf(resetPasswordRequestSchema, valid)).toEqual({});
  });

  it('a short code asks for the code, a wrong-shaped one is a wrong code', () => {
    expect(fieldMessagesOf(resetPasswordRequestSchema, { ...valid, code: '123' })).toEqual({
      code: ['Введите код, отправленный на почту'],
    });
    expect(fieldMessagesOf(resetPasswordRequestSchema, { ...valid, code: '12345a' })).toEqual({
      code: ['Неверный код'],
    });
    expect(fieldMessagesOf(resetPasswordRequestSchema, { ...valid, code: '1234567' })).toEqual({
      code: ['Неверный код'],
    });
  });

  it('logout-all takes the e-mail and the code', () => {
    expect(fieldMessagesOf(logoutAllRequestSchema, { email: 'a@b.ru', code: '123456' })).toEqual(
      {},
    );
    expect(fieldMessagesOf(logoutAllRequestSchema, { code: '123456' })).toEqual({
      email: ['Некорректный email'],
    });
  });
});

describe('two-factor', () => {
  it('the two-factor setup form takes 1–6 digits', () => {
    for (const code of ['1', '12345', '123456', ' 1', '12 345']) {
      expect(fieldMessagesOf(twoFactorSetupFormSchema, { code })).toEqual({});
    }
    for (const code of ['', '1234567', '12a', ' ']) {
      expect(fieldMessagesOf(twoFactorSetupFormSchema, { code })).toEqual({
        code: ['Заполните поле'],
      });
    }
  });

  it('verify and disable need six digits', () => {
    expect(fieldMessagesOf(twoFactorCodeRequestSchema, { code: '123456' })).toEqual({});
    expect(fieldMessagesOf(twoFactorCodeRequestSchema, { code: '12345' })).toEqual({
      code: ['Неверный код'],
    });
  });

  it('enable answers the QR code, the secret and the otpauth URI', () => {
    expect(
      twoFactorEnableAnswerSchema.safeParse({
        qrCode: 'iVBOR',
        secret: 'JBSW',
        otpauthUrl: 'otpauth://',
      }).success,
    ).toBe(true);
    expect(twoFactorEnableAnswerSchema.safeParse({ qrCode: 'iVBOR' }).success).toBe(false);
  });
});

describe('password change', () => {
  const valid = { oldPassword: 'old', newPassword: 'Abcdefg1', repeatPassword: 'Abcdefg1' };

  it('accepts a complete form', () => {
    expect(fieldMessagesOf(passwordChangeFormSchema, valid)).toEqual({});
  });

  it.each([[''], [undefined]])('old password %j → Введите текущий пароль', (oldPassword) => {
    expect(fieldMessagesOf(passwordChangeFormSchema, { ...valid, oldPassword })).toEqual({
      oldPassword: ['Введите текущий пароль'],
    });
  });

  it('the new password follows the rule', () => {
    expect(
      fieldMessagesOf(passwordChangeFormSchema, {
        ...valid,
        newPassword: 'Abcdefg1я',
        repeatPassword: 'Abcdefg1я',
      }),
    ).toEqual({ newPassword: ['Пароль не должен содержать кириллицу'] });
  });

  it('the repeat must match', () => {
    expect(fieldMessagesOf(passwordChangeFormSchema, { ...valid, repeatPassword: 'x' })).toEqual({
      repeatPassword: ['Пароли не совпадают'],
    });
  });

  it('the request needs the old password, the new one and a code', () => {
    expect(
      fieldMessagesOf(passwordChangeRequestSchema, {
        oldPassword: 'old',
        newPassword: 'Abcdefg1',
        code: '123456',
      }),
    ).toEqual({});
    expect(
      fieldMessagesOf(passwordChangeRequestSchema, { oldPassword: '', newPassword: 'Abcdefg1' }),
    ).toEqual({ oldPassword: ['Введите текущий пароль'], code: ['Неверный код'] });
  });
});

describe('recovery codes', () => {
  it('a recovery code is ten Crockford symbols, as issued or as typed', () => {
    for (const code of ['k3f9q-7wx2m', 'K3F9Q7WX2M', ' k3f9q 7wx2m ']) {
      expect(messagesOf(recoveryCodeSchema, code)).toEqual([]);
    }
    expect(messagesOf(recoveryCodeSchema, '')).toEqual(['Введите резервный код']);
    for (const code of ['123456', 'k3f9q-7wx2', 'k3f9q-7wx2u', 'k3f9q-7wx2mm']) {
      expect(messagesOf(recoveryCodeSchema, code)).toEqual([
        'Резервный код состоит из 10 букв и цифр, например k3f9q-7wx2m',
      ]);
    }
  });

  it('disable and renew take six digits or a recovery code', () => {
    for (const code of ['123456', 'k3f9q-7wx2m']) {
      expect(fieldMessagesOf(twoFactorConfirmRequestSchema, { code })).toEqual({});
    }
    for (const code of ['12345', 'abcdef', '']) {
      expect(fieldMessagesOf(twoFactorConfirmRequestSchema, { code })).toEqual({
        code: ['Неверный код'],
      });
    }
  });

  it('the login call takes a recovery code in twoFactorCode; the 6-box rule stays for the form', () => {
    const valid = { usernameOrEmail: 'ivan', password: 'x' };
    expect(fieldMessagesOf(loginRequestSchema, { ...valid, twoFactorCode: 'k3f9q-7wx2m' })).toEqual(
      {},
    );
    expect(fieldMessagesOf(loginRequestSchema, { ...valid, twoFactorCode: '12345' })).toEqual({
      twoFactorCode: ['Код должен содержать 6 символов'],
    });
    expect(
      fieldMessagesOf(loginTwoFactorFormSchema, { ...valid, twoFactorCode: 'k3f9q-7wx2m' }),
    ).toEqual({ twoFactorCode: ['Код должен содержать 6 символов'] });
  });

  it('verify answers the recovery codes with its message', () => {
    expect(
      recoveryCodesAnswerSchema.parse({ message: 'ok', recoveryCodes: ['k3f9q-7wx2m'] }),
    ).toEqual({ message: 'ok', recoveryCodes: ['k3f9q-7wx2m'] });
  });
});
