import { describe, expect, it } from 'vitest';
import { passkeyAssertionSchema } from './passkeys';

const assertion = (signatureLength: number) => ({
  id: 'lNlZRTW16DecFWs9ks6WDzCUykFPfix4x0khGemvUvo',
  rawId: 'lNlZRTW16DecFWs9ks6WDzCUykFPfix4x0khGemvUvo',
  type: 'public-key',
  clientExtensionResults: {},
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAg',
    signature: 'A'.repeat(signatureLength),
  },
});

describe('a passkey assertion', () => {
  it('takes the signatures of every algorithm the server offers, ML-DSA-87 the longest', () => {
    // ES256 (about 96 characters), RS256 (342), ML-DSA-44 (3227), ML-DSA-87 (6170).
    for (const length of [96, 342, 3227, 6170]) {
      expect(passkeyAssertionSchema.safeParse(assertion(length)).success, String(length)).toBe(
        true,
      );
    }
  });

  it('keeps a hostile body small', () => {
    expect(passkeyAssertionSchema.safeParse(assertion(8001)).success).toBe(false);
  });
});
