import { describe, expect, it } from 'vitest';
import { fieldMessagesOf, messagesOf } from '../test/support/schema-messages';
import {
  avatarMimeTypeSchema,
  emailChangeCodeFormSchema,
  emailChangeNewEmailFormSchema,
  emailChangePasswordFormSchema,
  profileNameSchema,
  profileUserNameSchema,
  updateAvatarRequestSchema,
  updateProfileFormSchema,
  updateProfileRequestSchema,
  uploadAnswerSchema,
} from './profile';

describe('profile userName', () => {
  it('accepts 3–16 characters and trims', () => {
    expect(profileUserNameSchema.parse('  abc  ')).toBe('abc');
    // Spaces inside go too, as at registration: 'ab cd' is stored as 'abcd'.
    expect(profileUserNameSchema.parse('ab cd')).toBe('abcd');
    expect(messagesOf(profileUserNameSchema, 'a b')).toEqual(['Минимум 3 символа']);
    expect(messagesOf(profileUserNameSchema, 'a'.repeat(16))).toEqual([]);
  });

  it.each([
    ['ab', 'Минимум 3 символа'],
    ['', 'Минимум 3 символа'],
    ['  ab  ', 'Минимум 3 символа'],
    ['a'.repeat(17), 'Максимум 16 символов'],
    ['   ', 'Поле не должно состоять только из пробелов'],
    ['\t \n', 'Поле не должно состоять только из пробелов'],
  ])('%j → %s', (input, message) => {
    expect(messagesOf(profileUserNameSchema, input)).toEqual([message]);
  });
});

describe('the profile form', () => {
  const values = { firstName: 'Иван', middleName: 'Иванович', lastName: 'Петров' };
  const userNameMessages = (current: string, userName: string) =>
    fieldMessagesOf(updateProfileFormSchema(current), { ...values, userName }).userName ?? [];

  it('holds a new username to the character rule', () => {
    expect(userNameMessages('ivan', 'ivαn')).toEqual([
      'Никнейм может содержать только латинские буквы, цифры, _ . -',
    ]);
    expect(userNameMessages('ivan', 'иван')).toEqual(['Никнейм не должен содержать кириллицу']);
    expect(userNameMessages('ivan', 'ivan_2')).toEqual([]);
  });

  it('lets an older name that breaks the rule stay as it is', () => {
    expect(userNameMessages('ivαn', 'ivαn')).toEqual([]);
    expect(userNameMessages('ivαn', 'ivαn2')).toEqual([
      'Никнейм может содержать только латинские буквы, цифры, _ . -',
    ]);
  });
});

describe('profile names', () => {
  it('accepts and trims a name', () => {
    expect(profileNameSchema.parse(' Иван ')).toBe('Иван');
  });

  it('accepts a name with marks on its letters, a digit or a symbol alone', () => {
    for (const name of ['Йо\u0301сиф', 'Zoë', 'X Æ A-12', '7', '★', 'ㅎ', '김민준']) {
      expect(profileNameSchema.parse(name)).toBe(name);
    }
  });

  it.each([
    ['', 'Поле не должно быть пустым'],
    [undefined, 'Поле не должно быть пустым'],
    ['   ', 'Поле не должно состоять только из пробелов'],
    ['x'.repeat(65), 'Максимум 64 символа'],
    ['Иван\u202e', 'Имя содержит недопустимые символы'],
    ['Ив\u200bан', 'Имя содержит недопустимые символы'],
    ['Ив\u0000ан', 'Имя содержит недопустимые символы'],
    // Nothing visible: combining marks, a variation selector, Hangul fillers, a blank pattern.
    ['\u0301\u0301\u0301', 'Имя содержит недопустимые символы'],
    ['\ufe0f\ufe0f', 'Имя содержит недопустимые символы'],
    ['\u3164\u3164', 'Имя содержит недопустимые символы'],
    ['\u115f\u1160\uffa0', 'Имя содержит недопустимые символы'],
    ['\u2800', 'Имя содержит недопустимые символы'],
    ['\u0301 \u20dd', 'Имя содержит недопустимые символы'],
  ])('%j → %s', (input, message) => {
    expect(messagesOf(profileNameSchema, input)).toEqual([message]);
  });

  it('update-profile checks each of the four fields and trims them', () => {
    const valid = {
      firstName: ' Иван',
      userName: 'ivan ',
      middleName: 'Иванович',
      lastName: 'Петров',
    };
    expect(updateProfileRequestSchema.parse(valid)).toEqual({
      firstName: 'Иван',
      userName: 'ivan',
      middleName: 'Иванович',
      lastName: 'Петров',
    });
    expect(
      fieldMessagesOf(updateProfileRequestSchema, {
        firstName: '',
        userName: ' ',
        middleName: '  ',
        lastName: 'Петров',
      }),
    ).toEqual({
      firstName: ['Поле не должно быть пустым'],
      userName: ['Поле не должно состоять только из пробелов'],
      middleName: ['Поле не должно состоять только из пробелов'],
    });
  });
});

describe('avatar', () => {
  it('accepts png or jpeg', () => {
    expect(messagesOf(avatarMimeTypeSchema, 'image/png')).toEqual([]);
    expect(messagesOf(avatarMimeTypeSchema, 'image/jpeg')).toEqual([]);
    expect(messagesOf(avatarMimeTypeSchema, 'image/gif')).toEqual([
      'Допустимы только изображения PNG или JPEG',
    ]);
  });

  it('update-avatar needs an address, upload answers one', () => {
    expect(messagesOf(updateAvatarRequestSchema, { avatarUrl: '/uploads/a.png' })).toEqual([]);
    expect(messagesOf(updateAvatarRequestSchema, { avatarUrl: ' ' })).toEqual([
      'Поле не должно быть пустым',
    ]);
    expect(uploadAnswerSchema.safeParse({ data: '/uploads/a.png' }).success).toBe(true);
  });
});

describe('e-mail change modal', () => {
  it('codes are digits only', () => {
    expect(fieldMessagesOf(emailChangeCodeFormSchema, { code: '123456' })).toEqual({});
    expect(fieldMessagesOf(emailChangeCodeFormSchema, { code: '12a456' })).toEqual({
      code: ['Неверный код'],
    });
  });

  it('the new address must be an e-mail', () => {
    expect(fieldMessagesOf(emailChangeNewEmailFormSchema, { email: 'new@b.ru' })).toEqual({});
    expect(fieldMessagesOf(emailChangeNewEmailFormSchema, { email: 'new@' })).toEqual({
      email: ['Неверная почта'],
    });
  });

  it('password and repeat are non-empty and equal', () => {
    expect(
      fieldMessagesOf(emailChangePasswordFormSchema, { password: 'a', repeatPassword: 'a' }),
    ).toEqual({});
    expect(
      fieldMessagesOf(emailChangePasswordFormSchema, { password: '', repeatPassword: '' }),
    ).toEqual({
      password: ['Поля не должно быть пустыми'],
      repeatPassword: ['Поля не должно быть пустыми'],
    });
    expect(
      fieldMessagesOf(emailChangePasswordFormSchema, { password: 'a', repeatPassword: 'b' }),
    ).toEqual({ repeatPassword: ['Пароли не совпадают'] });
  });
});
