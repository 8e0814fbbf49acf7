import { AxiosError, AxiosHeaders, type AxiosResponse } from 'axios';
import { describe, expect, it } from 'vitest';
import { isProofRequired } from './proof-required';

function answered(status: number, data: unknown): AxiosError {
  const config = { headers: new AxiosHeaders() };
  const response: AxiosResponse = { status, statusText: '', headers: {}, config, data };
  return new AxiosError(`status ${status}`, 'ERR_BAD_REQUEST', config, {}, response);
}

describe('isProofRequired', () => {
  it('is a 403 whose answer asks for a proof', () => {
    expect(
      isProofRequired(answered(403, { message: 'Подтвердите', reason: 'proof_required' })),
    ).toBe(true);
  });

  it.each([
    ['another 403', answered(403, { message: 'Недостаточно прав' })],
    ['the reason on another status', answered(400, { message: 'x', reason: 'proof_required' })],
    ['an answer that is not JSON', answered(403, '<html>403</html>')],
    ['no answer at all', new AxiosError('Network Error', 'ERR_NETWORK')],
    ['not an HTTP error', new Error('boom')],
  ])('is not %s', (_, error) => {
    expect(isProofRequired(error)).toBe(false);
  });
});
