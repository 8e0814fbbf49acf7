// A tiny WebAuthn authenticator in software (ES256, 'none' attestation), so tests send the server
// the very bytes a browser would, signed for real: nothing of @simplewebauthn is mocked.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const buffer = Buffer.alloc(3);
    buffer[0] = (major << 5) | 25;
    buffer.writeUInt16BE(length, 1);
    return buffer;
  }
  const buffer = Buffer.alloc(5);
  buffer[0] = (major << 5) | 26;
  buffer.writeUInt32BE(length, 1);
  return buffer;
}

/** CBOR (RFC 8949) of the few types an attestation object holds; map keys keep their order. */
export function encodeCbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([
    head(5, entries.length),
    ...entries.flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)]),
  ]);
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

const FLAGS = { userPresent: 0x01, userVerified: 0x04, attested: 0x40 } as const;

export interface Where {
  /** The page's origin as the browser writes it into clientDataJSON. */
  origin: string;
  /** The relying party id the authenticator hashes into its data. */
  rpId: string;
}

/** The test portal's page, where its passkeys are made and used (testConfig's PUBLIC_URL). */
export const PORTAL: Where = { origin: 'http://portal.test', rpId: 'portal.test' };

interface CreationOptions {
  challenge: string;
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
}

/** One credential of one authenticator: a key pair, an id, a user handle and a counter. */
export class SoftwarePasskey {
  readonly credentialId = randomBytes(16);
  readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  userHandle = '';
  counter = 0;
  isUserVerified = true;

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    return encodeCbor(
      new Map<Cbor, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(this.publicJwk.x, 'base64url')],
        [-3, Buffer.from(this.publicJwk.y, 'base64url')],
      ]),
    );
  }

  private authenticatorData(rpId: string, withCredential: boolean): Buffer {
    const flags =
      FLAGS.userPresent |
      (this.isUserVerified ? FLAGS.userVerified : 0) |
      (withCredential ? FLAGS.attested : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const parts: Uint8Array[] = [sha256(rpId), Buffer.from([flags]), counter];
    if (withCredential) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, this.coseKey());
    }
    return Buffer.concat(parts);
  }

  /** What `navigator.credentials.create` answers for `options` (RegistrationResponseJSON). */
  create(options: CreationOptions, where: Where) {
    this.userHandle = options.user.id;
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.create',
        challenge: options.challenge,
        origin: where.origin,
        crossOrigin: false,
      }),
    );
    const attestationObject = encodeCbor({
      fmt: 'none',
      attStmt: {},
      authData: this.authenticatorData(where.rpId, true),
    });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal' as const],
      },
    };
  }

  /** What `navigator.credentials.get` answers for `options` (AuthenticationResponseJSON). */
  get(options: RequestOptions, where: Where, counterStep = 1) {
    this.counter += counterStep;
    const clientDataJSON = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: where.origin,
        crossOrigin: false,
      }),
    );
    const authenticatorData = this.authenticatorData(where.rpId, false);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      this.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}
