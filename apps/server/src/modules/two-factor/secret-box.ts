import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

// AES-256-GCM with a key derived from SECRET_KEY (HKDF-SHA256, its own `info`, so this key is never
// the one that signs one-time codes). The user id is the additional data: a ciphertext copied onto
// another account does not decrypt.
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The authenticator secrets' box, the default; the first signing keys were sealed with it too. */
export const TOTP_SECRET_PURPOSE = 'totp-secret:v1';

export function deriveKey(secretKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, '', `portal:${purpose}`, 32));
}

export interface SecretBoxDeps {
  /** SECRET_KEY, from which its own key is derived. */
  secretKey: string;
  /**
   * What the box is for: each purpose has its own key derived from SECRET_KEY. The
   * authenticator secrets' by default; the provider's signing keys have theirs (modules/oidc).
   */
  purpose?: string;
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(deps: SecretBoxDeps) {
    this.key = deriveKey(deps.secretKey, deps.purpose ?? TOTP_SECRET_PURPOSE);
  }

  seal(plaintext: string, boundTo: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The plaintext, or null when the box was tampered with, moved, or sealed with another key. */
  open(sealed: string, boundTo: string): string | null {
    const [version, encoded] = sealed.split('.');
    if (version !== VERSION || !encoded) return null;
    const raw = Buffer.from(encoded, 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(boundTo));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      const body = raw.subarray(IV_BYTES + TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
