import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

const KEY = 'test-secret-key-test-secret-key-0123456789';

describe('SecretBox (AES-256-GCM)', () => {
  it('round-trips, and never stores the plaintext', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('uses a fresh nonce each time', () => {
    const box = new SecretBox(KEY);
    expect(box.seal('same', 'user-1')).not.toBe(box.seal('same', 'user-1'));
  });

  it('refuses another key, another user, and any tampering', () => {
    const box = new SecretBox(KEY);
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(new SecretBox(`${KEY}-other`).open(sealed, 'user-1')).toBeNull();
    expect(box.open(sealed, 'user-2')).toBeNull();
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(box.open(flipped, 'user-1')).toBeNull();
    expect(box.open('v2.abc', 'user-1')).toBeNull();
    expect(box.open('garbage', 'user-1')).toBeNull();
  });
});
