import { describe, expect, it } from 'vitest';
import {
  generateRecoveryCodes,
  normalizeRecoveryCode,
  RECOVERY_CODE_COUNT,
  RecoveryCodeHasher,
} from './recovery-codes.js';

describe('recovery codes', () => {
  it('makes ten distinct codes shaped xxxxx-xxxxx', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
  });

  it('accepts what a person types: any case, spaces, no dash', () => {
    expect(normalizeRecoveryCode('K3F9Q-7WX2M')).toBe('k3f9q7wx2m');
    expect(normalizeRecoveryCode(' k3f9q 7wx2m ')).toBe('k3f9q7wx2m');
    expect(normalizeRecoveryCode('k3f9q7wx2m')).toBe('k3f9q7wx2m');
  });

  it('refuses anything else, six-digit codes included', () => {
    expect(normalizeRecoveryCode('123456')).toBeNull();
    expect(normalizeRecoveryCode('k3f9q-7wx2')).toBeNull();
    expect(normalizeRecoveryCode('k3f9q-7wx2mm')).toBeNull();
    expect(normalizeRecoveryCode('k3f9q-7wx2u')).toBeNull();
  });

  it('hashes per user under the server key', () => {
    const hasher = new RecoveryCodeHasher({
      secretKey: 'test-secret-key-test-secret-key-0123456789',
    });
    const other = new RecoveryCodeHasher({
      secretKey: 'another-secret-key-another-secret-key-0123',
    });
    const hash = hasher.hash('user-1', 'k3f9q7wx2m');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('k3f9q7wx2m');
    expect(hasher.hash('user-1', 'k3f9q7wx2m')).toBe(hash);
    expect(hasher.hash('user-2', 'k3f9q7wx2m')).not.toBe(hash);
    expect(other.hash('user-1', 'k3f9q7wx2m')).not.toBe(hash);
  });
});
