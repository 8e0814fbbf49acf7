import { NO_CONNECTION, REQUEST_FAILED, UNKNOWN_ERROR } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { isProofRequired, noAnswerText, toApiFailure } from './api-failure';
import { HttpError } from './http';

function answered(status: number, data: unknown, headers: Record<string, string> = {}): HttpError {
  return new HttpError(`Request failed with status code ${status}`, { status, headers, data });
}

describe('toApiFailure', () => {
  it('reads the status, the message, the field messages and the reason of an answer', () => {
    const failure = toApiFailure(
      answered(400, { message: 'Проверьте данные', errors: { email: ['Некорректный email'] } }),
    );
    expect(failure).toEqual({
      isRequestError: true,
      status: 400,
      message: 'Проверьте данные',
      errors: { email: ['Некорректный email'] },
      reason: null,
      retryAfterSeconds: null,
      confirmation: null,
      text: 'Проверьте данные',
    });
  });

  it("reads where an unconfirmed account's code went, and nothing of another shape", () => {
    const confirmation = { email: 'a@example.com', resendAfterSeconds: 40 };
    expect(toApiFailure(answered(403, { message: 'x', confirmation })).confirmation).toEqual(
      confirmation,
    );
    expect(
      toApiFailure(answered(403, { message: 'x', confirmation: { email: 1 } })).confirmation,
    ).toBeNull();
  });

  it('keeps only the text messages of each field', () => {
    const data = { message: 'x', errors: { code: ['Неверный код', 42], email: 'не список' } };
    expect(toApiFailure(answered(400, data)).errors).toEqual({ code: ['Неверный код'] });
  });

  it("takes a 429's Retry-After in whole seconds, rounded up", () => {
    expect(
      toApiFailure(answered(429, { message: 'Подождите' }, { 'retry-after': '41.2' })),
    ).toMatchObject({
      status: 429,
      retryAfterSeconds: 42,
    });
    expect(toApiFailure(answered(429, {}, { 'retry-after': 'soon' })).retryAfterSeconds).toBeNull();
  });

  it('shows the server message as the text when the server answered with one', () => {
    expect(toApiFailure(answered(409, { message: 'Никнейм уже занят' })).text).toBe(
      'Никнейм уже занят',
    );
  });

  it.each([
    ['no body', undefined],
    ['a body without message', { errors: { email: ['x'] } }],
    ['an empty message', { message: '  ' }],
    ['a non-string message', { message: 42 }],
    ['an HTML error page', '<html>502</html>'],
  ])('says "Ошибка запроса" for an answer with %s', (_, data) => {
    const failure = toApiFailure(answered(502, data));
    expect(failure.text).toBe(REQUEST_FAILED);
    expect(failure.message).toBeNull();
  });

  it("shows the error's own message when nothing answered", () => {
    expect(toApiFailure(new HttpError('Network Error'))).toMatchObject({
      isRequestError: true,
      status: null,
      text: 'Network Error',
    });
    expect(toApiFailure(new Error('No authorisation')).text).toBe('No authorisation');
  });

  it('tells a failed call from any other error', () => {
    expect(toApiFailure(new HttpError('Network Error')).isRequestError).toBe(true);
    expect(toApiFailure(answered(500, {})).isRequestError).toBe(true);
    expect(toApiFailure(new TypeError('x is undefined')).isRequestError).toBe(false);
  });

  it('says "Неизвестная ошибка" for anything without a message', () => {
    expect(toApiFailure(new HttpError('')).text).toBe(UNKNOWN_ERROR);
    expect(toApiFailure(new Error('')).text).toBe(UNKNOWN_ERROR);
    expect(toApiFailure('boom').text).toBe(UNKNOWN_ERROR);
    expect(toApiFailure(undefined).text).toBe(UNKNOWN_ERROR);
  });
});

describe('isProofRequired', () => {
  it('is a 403 whose answer asks for a proof', () => {
    const error = answered(403, { message: 'Подтвердите', reason: 'proof_required' });
    expect(isProofRequired(toApiFailure(error))).toBe(true);
  });

  it.each([
    ['another 403', answered(403, { message: 'Недостаточно прав' })],
    ['the reason on another status', answered(400, { message: 'x', reason: 'proof_required' })],
    ['an unknown reason', answered(403, { message: 'x', reason: 'something_else' })],
    ['an answer that is not JSON', answered(403, '<html>403</html>')],
    ['no answer at all', new HttpError('Network Error')],
    ['not an HTTP error', new Error('boom')],
  ])('is not %s', (_, error) => {
    expect(isProofRequired(toApiFailure(error))).toBe(false);
  });
});

describe('noAnswerText', () => {
  it('tells a call with no answer in the client’s words, and nothing for an answer or a bug', () => {
    expect(noAnswerText(toApiFailure(new HttpError(NO_CONNECTION)))).toBe(NO_CONNECTION);
    expect(noAnswerText(toApiFailure(answered(500, {})))).toBeNull();
    expect(noAnswerText(toApiFailure(new TypeError('x is undefined')))).toBeNull();
  });
});
