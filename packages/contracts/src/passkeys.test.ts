import { describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES, passkeyAssertionSchema, passkeyNameSchema } from './passkeys';

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

describe('a passkey name', () => {
  it('takes a name of letters, digits and signs, trimmed', () => {
    expect(passkeyNameSchema.parse('  Ноутбук (работа) №2  ')).toBe('Ноутбук (работа) №2');
  });

  it.each([
    ['a direction override', 'Ключ\u202e'],
    ['a control character', 'Клю\u0007ч'],
    ['only an invisible character', '\u200b'],
    ['only a blank-looking letter', '\u3164'],
  ])('refuses %s: the support desk shows the name too', (_, name) => {
    const result = passkeyNameSchema.safeParse(name);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      PASSKEY_MESSAGES.nameForbiddenCharacters,
    ]);
  });
});
