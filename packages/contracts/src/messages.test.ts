import { describe, expect, it } from 'vitest';
import * as messageModule from './messages';

// A plain object, so tests can look texts up by name.
const messages: Record<string, string> = { ...messageModule };

// The product's validation and error texts, copied letter for letter: a changed constant fails here.
const specTexts = {
  PASSWORD_TOO_SHORT: 'Пароль должен содержать минимум 8 символов',
  PASSWORD_TOO_LONG: 'Пароль должен содержать максимум 32 символа',
  PASSWORD_NEEDS_UPPERCASE: 'Пароль должен содержать хотя бы одну заглавную букву (A-Z)',
  PASSWORD_NEEDS_LOWERCASE: 'Пароль должен содержать хотя бы одну строчную букву (a-z)',
  PASSWORD_NEEDS_DIGIT: 'Пароль должен содержать хотя бы одну цифру (0-9)',
  PASSWORD_HAS_CYRILLIC: 'Пароль не должен содержать кириллицу',
  PASSWORDS_DO_NOT_MATCH: 'Пароли не совпадают',
  EMAIL_INVALID: 'Некорректный email',
  NAME_REQUIRED: 'Имя обязательно',
  USERNAME_REQUIRED: 'Никнейм обязателен',
  USERNAME_HAS_CYRILLIC: 'Никнейм не должен содержать кириллицу',
  LOGIN_REQUIRED: 'Введите логин',
  PASSWORD_REQUIRED: 'Введите пароль',
  TWO_FACTOR_CODE_REQUIRED: 'Введите код подтверждения',
  TWO_FACTOR_CODE_LENGTH: 'Код должен содержать 6 символов',
  OLD_PASSWORD_REQUIRED: 'Введите текущий пароль',
  FIELD_REQUIRED: 'Заполните поле',
  RESET_CODE_REQUIRED: 'Введите код, отправленный на почту',
  USERNAME_TOO_SHORT: 'Минимум 3 символа',
  USERNAME_TOO_LONG: 'Максимум 16 символов',
  FIELD_ONLY_WHITESPACE: 'Поле не должно состоять только из пробелов',
  FIELD_EMPTY: 'Поле не должно быть пустым',
  FIELDS_EMPTY: 'Поля не должно быть пустыми',
  EMAIL_WRONG: 'Неверная почта',
  EMAIL_UPDATED: 'Почта обновлена',
  CODE_WRONG: 'Неверный код',
  REQUEST_FAILED: 'Ошибка запроса',
  UNKNOWN_ERROR: 'Неизвестная ошибка',
  UNKNOWN_ERROR_OCCURRED: 'Произошла неизвестная ошибка',
  TOKEN_INVALID: 'Недействительный токен',
  USER_NOT_FOUND: 'Пользователь не найден',
  PROFILE_UPDATE_FAILED: 'Ошибка при обновлении профиля',
  PAYMENT_REQUEST_FAILED: 'Ошибка при отправке запроса.',
  SOMETHING_WENT_WRONG: 'Что-то пошло не так.',
  LOGIN_SUCCESS: 'Успешный вход',
  ID_COPIED: 'ID скопирован!',
  EMAIL_NOT_FOUND: 'Почта не найдена',
  TELEGRAM_LINK_FAILED: 'Ошибка генерации ссылки',
  TELEGRAM_CHECK_FAILED: 'Ошибка получения 2fa',
  NO_AUTHORISATION: 'No authorisation',
} as const;

describe('messages', () => {
  it.each(Object.entries(specTexts))('%s is the product text, letter for letter', (name, text) => {
    expect(messages[name]).toBe(text);
  });

  it('every message is Russian except the one the product words in English', () => {
    for (const [name, text] of Object.entries(messages)) {
      if (name === 'NO_AUTHORISATION') continue;
      expect(text, name).toMatch(/[а-яё]/i);
    }
  });
});
