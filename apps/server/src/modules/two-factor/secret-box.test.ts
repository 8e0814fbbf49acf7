import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.js';

const KEY = 'test-secret-key-test-secret-key-0123456789';

describe('SecretBox (AES-256-GCM)', () => {
  it('round-trips, and never stores the plaintext', () => {
    const box = new SecretBox({ secretKey: KEY });
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user-1')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('uses a fresh nonce each time', () => {
    const box = new SecretBox({ secretKey: KEY });
    expect(box.seal('same', 'user-1')).not.toBe(box.seal('same', 'user-1'));
  });

  it('refuses another key, another user, and any tampering', () => {
    const box = new SecretBox({ secretKey: KEY });
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user-1');
    expect(new SecretBox({ secretKey: `${KEY}-other` }).open(sealed, 'user-1')).toBeNull();
    expect(box.open(sealed, 'user-2')).toBeNull();
    // Flip one bit of every byte in turn (nonce, tag and body): each change must be refused.
    const raw = Buffer.from(sealed.slice('v1.'.length), 'base64url');
    for (let index = 0; index < raw.length; index += 1) {
      const tampered = Buffer.from(raw);
      tampered[index] = (tampered[index] ?? 0) ^ 0x01;
      expect(box.open(`v1.${tampered.toString('base64url')}`, 'user-1')).toBeNull();
    }
    expect(box.open('v2.abc', 'user-1')).toBeNull();
    expect(box.open('garbage', 'user-1')).toBeNull();
  });
});
