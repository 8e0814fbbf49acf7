import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging.js';

describe('request URLs in the log', () => {
  it('hide tokens in the query and the key of a sandbox checkout link', () => {
    expect(redactUrl('/auth/confirm?email=a%40b.c&token=abc&x=1')).toBe(
      '/auth/confirm?email=a%40b.c&token=[скрыто]&x=1',
    );
    const checkoutToken = 'q5bXUk0o6Yk7T8v2Rc9nW1mJHf3sLpAeZgDxVtCiOyM';
    expect(redactUrl(`/sandbox/tbank/pay/${checkoutToken}?via=sbp`)).toBe(
      '/sandbox/tbank/pay/[скрыто]?via=sbp',
    );
    expect(redactUrl('/sandbox/tbank/v2/Init')).toBe('/sandbox/tbank/v2/Init');
  });
});
