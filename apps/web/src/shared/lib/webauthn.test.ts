import { describe, expect, it } from 'vitest';
import { isPasskeyCancelled } from './webauthn';

describe('isPasskeyCancelled', () => {
  it('is true when the person closed the dialog or another ceremony replaced it', () => {
    expect(isPasskeyCancelled(new DOMException('closed', 'NotAllowedError'))).toBe(true);
    expect(isPasskeyCancelled(new DOMException('aborted', 'AbortError'))).toBe(true);
    expect(
      isPasskeyCancelled(Object.assign(new Error('x'), { code: 'ERROR_CEREMONY_ABORTED' })),
    ).toBe(true);
  });

  it('is false for a real failure', () => {
    expect(isPasskeyCancelled(new DOMException('bad rp id', 'SecurityError'))).toBe(false);
    expect(isPasskeyCancelled(new Error('network'))).toBe(false);
    expect(isPasskeyCancelled(undefined)).toBe(false);
  });
});
