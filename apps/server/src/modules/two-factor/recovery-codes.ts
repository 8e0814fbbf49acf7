import { createHmac, randomInt } from 'node:crypto';
import { deriveKey } from './secret-box.js';

export const RECOVERY_CODE_COUNT = 10;
// Crockford-style Base32 without I, L, O, U: nothing to misread when copied from paper.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const GROUP = 5;

/** 'k3f9q-7wx2m': ten symbols, 50 bits; spent on use, and every wrong try counts toward the lock. */
function generateRecoveryCode(): string {
  let code = '';
  for (let index = 0; index < GROUP * 2; index++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, GROUP)}-${code.slice(GROUP)}`;
}

export function generateRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(generateRecoveryCode());
  return [...codes];
}

/** What a person may type: any case, with or without the dash and spaces. Null when not a code. */
export function normalizeRecoveryCode(input: string): string | null {
  const compact = input.toLowerCase().replace(/[\s-]/g, '');
  if (compact.length !== GROUP * 2) return null;
  for (const char of compact) if (!ALPHABET.includes(char)) return null;
  return compact;
}

export interface RecoveryCodeHasherDeps {
  /** SECRET_KEY, from which its own key is derived. */
  secretKey: string;
}

/**
 * Stored as an HMAC under a key derived from SECRET_KEY: the codes are random (50 bits), so a keyed
 * hash is enough, and a slow hash would cost ten argon2 runs per sign-in with a recovery code.
 */
export class RecoveryCodeHasher {
  private readonly key: Buffer;

  constructor(deps: RecoveryCodeHasherDeps) {
    this.key = deriveKey(deps.secretKey, 'recovery-code:v1');
  }

  hash(userId: string, normalizedCode: string): string {
    return createHmac('sha256', this.key).update(`${userId}:${normalizedCode}`).digest('hex');
  }
}
