import {
  NO_CONNECTION,
  PROFILE_UPDATE_FAILED,
  TOKEN_INVALID,
  UNKNOWN_ERROR_OCCURRED,
  USER_NOT_FOUND,
} from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { toApiFailure } from '@/shared/api/api-failure';
import { HttpError } from '@/shared/api/http';
import { profileErrorTexts } from './profile-error-texts';

function failure(status: number, data: unknown) {
  return toApiFailure(new HttpError('Request failed', { status, headers: {}, data }));
}

describe('profileErrorTexts', () => {
  it('lists each message of errors for a 400', () => {
    const error = failure(400, {
      message: 'Минимум 3 символа',
      errors: { userName: ['Минимум 3 символа'], firstName: ['Поле не должно быть пустым'] },
    });
    expect(profileErrorTexts(error)).toEqual(['Минимум 3 символа', 'Поле не должно быть пустым']);
  });

  it('falls back for a 400 without errors', () => {
    expect(profileErrorTexts(failure(400, { message: 'x' }))).toEqual([UNKNOWN_ERROR_OCCURRED]);
  });

  it('shows the server message or the fixed text for 401 and 404', () => {
    expect(profileErrorTexts(failure(401, { message: 'Сессия истекла' }))).toEqual([
      'Сессия истекла',
    ]);
    expect(profileErrorTexts(failure(401, {}))).toEqual([TOKEN_INVALID]);
    expect(profileErrorTexts(failure(404, { message: 'Нет такого' }))).toEqual(['Нет такого']);
    expect(profileErrorTexts(failure(404, null))).toEqual([USER_NOT_FOUND]);
  });

  it('shows the taken nickname of a 409', () => {
    const error = failure(409, {
      message: 'Этот никнейм уже занят',
      errors: { userName: ['Этот никнейм уже занят'] },
    });
    expect(profileErrorTexts(error)).toEqual(['Этот никнейм уже занят']);
  });

  it('says there is no connection when the call got no answer', () => {
    expect(profileErrorTexts(toApiFailure(new HttpError(NO_CONNECTION)))).toEqual([NO_CONNECTION]);
  });

  it('shows the generic profile text for anything else', () => {
    expect(profileErrorTexts(failure(500, { message: 'Внутренняя ошибка' }))).toEqual([
      PROFILE_UPDATE_FAILED,
    ]);
    expect(profileErrorTexts(toApiFailure(new Error('Network Error')))).toEqual([
      PROFILE_UPDATE_FAILED,
    ]);
  });
});
