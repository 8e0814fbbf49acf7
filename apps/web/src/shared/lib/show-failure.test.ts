import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toApiFailure } from '@/shared/api/api-failure';
import { HttpError } from '@/shared/api/http';
import { notify } from '@/shared/ui/toast';
import { fieldMessages, showFailure } from './show-failure';

vi.mock('@/shared/ui/toast', () => ({ notify: { error: vi.fn() } }));

function failure(status: number, data: unknown) {
  return toApiFailure(new HttpError('Request failed', { status, headers: {}, data }));
}

const wrongCode = failure(400, { message: 'Неверный код', errors: { code: ['Неверный код'] } });

describe('fieldMessages', () => {
  it('takes the first message of each field of the form the answer names, in the form’s order', () => {
    const refused = failure(400, {
      message: 'Проверьте данные',
      errors: { newPassword: ['Слабый', 'Короткий'], oldPassword: ['Неверный'], other: ['x'] },
    });
    expect(fieldMessages(refused, ['oldPassword', 'newPassword', 'code'])).toEqual([
      ['oldPassword', 'Неверный'],
      ['newPassword', 'Слабый'],
    ]);
  });

  it('finds nothing in an answer without field messages', () => {
    expect(fieldMessages(failure(500, { message: 'Сбой' }), ['code'])).toEqual([]);
    expect(fieldMessages(toApiFailure(new HttpError('Нет соединения')), ['code'])).toEqual([]);
  });
});

describe('showFailure', () => {
  beforeEach(() => vi.mocked(notify.error).mockClear());

  it('shows a field’s message under it, focused, and raises no toast', () => {
    const setError = vi.fn();
    expect(showFailure(wrongCode, ['code'], setError)).toBe(true);
    expect(setError).toHaveBeenCalledExactlyOnceWith(
      'code',
      { message: 'Неверный код' },
      { shouldFocus: true },
    );
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('focuses only the first of several fields', () => {
    const setError = vi.fn();
    const refused = failure(400, { errors: { firstName: ['a'], lastName: ['b'] } });
    showFailure(refused, ['firstName', 'lastName'], setError);
    expect(setError.mock.calls.map(([, , options]) => options)).toEqual([
      { shouldFocus: true },
      { shouldFocus: false },
    ]);
  });

  it('toasts the failure’s text once when no field of the form is named', () => {
    const setError = vi.fn();
    expect(showFailure(failure(429, { message: 'Слишком часто' }), ['code'], setError)).toBe(false);
    expect(
      showFailure(
        failure(400, { message: 'Не то', errors: { userId: ['x'] } }),
        ['code'],
        setError,
      ),
    ).toBe(false);
    expect(setError).not.toHaveBeenCalled();
    expect(vi.mocked(notify.error).mock.calls).toEqual([['Слишком часто'], ['Не то']]);
  });

  it('toasts the texts it is given instead, each once', () => {
    showFailure(failure(500, {}), ['code'], vi.fn(), ['Первый', 'Второй']);
    showFailure(failure(500, {}), ['code'], vi.fn(), 'Свой текст');
    expect(vi.mocked(notify.error).mock.calls).toEqual([['Первый'], ['Второй'], ['Свой текст']]);
  });
});
