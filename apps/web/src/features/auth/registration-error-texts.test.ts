import { describe, expect, it } from 'vitest';
import type { ApiFailure } from '@/shared/api/api-failure';
import { registrationErrorTexts } from './registration-error-texts';

const failure = (overrides: Partial<ApiFailure>): ApiFailure => ({
  isRequestError: true,
  status: 500,
  message: null,
  errors: {},
  reason: null,
  retryAfterSeconds: null,
  confirmation: null,
  text: 'Ошибка запроса',
  ...overrides,
});

describe('registrationErrorTexts', () => {
  it('shows every field message of a 400, once each', () => {
    const texts = registrationErrorTexts(
      failure({
        status: 400,
        message: 'Проверьте введённые данные',
        errors: { email: ['Некорректный email'], password: ['A', 'Некорректный email'] },
      }),
    );
    expect(texts).toEqual(['Некорректный email', 'A']);
  });

  it('falls back to the message, then to the unknown-error text, for a 400 without fields', () => {
    expect(registrationErrorTexts(failure({ status: 400, message: 'Плохо' }))).toEqual(['Плохо']);
    expect(registrationErrorTexts(failure({ status: 400 }))).toEqual([
      'Произошла неизвестная ошибка',
    ]);
  });

  it('uses the fixed texts of 401 and 404 when the server sends none', () => {
    expect(registrationErrorTexts(failure({ status: 401 }))).toEqual(['Недействительный токен']);
    expect(registrationErrorTexts(failure({ status: 404 }))).toEqual(['Пользователь не найден']);
    expect(registrationErrorTexts(failure({ status: 404, message: 'Нет' }))).toEqual(['Нет']);
  });

  it("shows a conflict's own message, and the catalogue text for a bare failure", () => {
    expect(
      registrationErrorTexts(failure({ status: 409, message: 'Этот никнейм уже занят' })),
    ).toEqual(['Этот никнейм уже занят']);
    expect(registrationErrorTexts(failure({ status: 500 }))).toEqual([
      'Ошибка при обновлении профиля',
    ]);
  });

  it('shows the generic text when there was no answer at all', () => {
    expect(registrationErrorTexts(failure({ status: null, text: 'Network Error' }))).toEqual([
      'Network Error',
    ]);
  });
});
