import { REQUEST_FAILED, UNKNOWN_ERROR } from '@portal/contracts/messages';
import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it } from 'vitest';
import { errorText } from './error-text';

function answered(status: number, data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response: AxiosResponse = { status, statusText: '', headers: {}, config, data };
  return new AxiosError(
    `Request failed with status code ${status}`,
    'ERR_BAD_RESPONSE',
    config,
    {},
    response,
  );
}

describe('errorText (spec §8 generic handler)', () => {
  it('shows the server message when the server answered with one', () => {
    expect(errorText(answered(409, { message: 'Никнейм уже занят' }))).toBe('Никнейм уже занят');
  });

  it.each([
    ['no body', undefined],
    ['a body without message', { errors: { email: ['x'] } }],
    ['an empty message', { message: '  ' }],
    ['a non-string message', { message: 42 }],
    ['an HTML error page', '<html>502</html>'],
  ])('says "Ошибка запроса" for an answer with %s', (_, data) => {
    expect(errorText(answered(502, data))).toBe(REQUEST_FAILED);
  });

  it("shows the error's own message when nothing answered", () => {
    expect(errorText(new AxiosError('Network Error', 'ERR_NETWORK'))).toBe('Network Error');
    expect(errorText(new Error('No authorisation'))).toBe('No authorisation');
  });

  it('says "Неизвестная ошибка" for anything without a message', () => {
    expect(errorText(new AxiosError(''))).toBe(UNKNOWN_ERROR);
    expect(errorText(new Error(''))).toBe(UNKNOWN_ERROR);
    expect(errorText('boom')).toBe(UNKNOWN_ERROR);
    expect(errorText(undefined)).toBe(UNKNOWN_ERROR);
  });
});
