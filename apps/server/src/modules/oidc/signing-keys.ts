/**
 * The provider's signing keys: generated on the first start (RS256, which every library accepts,
 * and ES256), kept in `oidc_signing_keys` with each private JWK sealed by the portal's secret box
 * (AES-256-GCM under a key derived from SECRET_KEY, bound to the key's id), and read back at
 * every start. The database alone never yields a private key.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { JWK } from 'oidc-provider';
import type { Clock } from '../../adapters/clock.js';
import type { Db } from '../../db/database.js';
import { SecretBox } from '../two-factor/index.js';
import { oidcSigningKeys } from './schema.js';

/** RS256 first: the algorithm a client gets unless it asks for another. */
const ALGORITHMS = ['RS256', 'ES256'] as const;
type Algorithm = (typeof ALGORITHMS)[number];

export interface SigningKeysDeps {
  db: Db;
  clock: Clock;
  secretKey: string;
}

export class SigningKeys {
  private readonly box: SecretBox;

  constructor(private readonly deps: SigningKeysDeps) {
    this.box = new SecretBox({ secretKey: deps.secretKey });
  }

  /**
   * The private JWKs the provider signs with and publishes, the current key of each algorithm
   * first. Missing ones are generated under a transaction-scoped lock, so two processes starting
   * together make one key each, not two.
   */
  async load(): Promise<JWK[]> {
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('oidc_signing_keys'))`);
      const rows = await tx.select().from(oidcSigningKeys);
      for (const alg of ALGORITHMS) {
        if (rows.some((row) => row.alg === alg && !row.retiredAt)) continue;
        const kid = randomUUID();
        const [row] = await tx
          .insert(oidcSigningKeys)
          .values({
            kid,
            alg,
            sealedJwk: this.box.seal(JSON.stringify(generateJwk(alg, kid)), boundTo(kid)),
            createdAt: this.deps.clock.now(),
          })
          .returning();
        rows.push(row!);
      }
      const current = (row: (typeof rows)[number]) => (row.retiredAt ? 1 : 0);
      return rows
        .sort((a, b) => current(a) - current(b) || +b.createdAt - +a.createdAt)
        .map((row) => this.open(row.kid, row.sealedJwk));
    });
  }

  private open(kid: string, sealed: string): JWK {
    const json = this.box.open(sealed, boundTo(kid));
    // Another SECRET_KEY than the one that sealed it: the start stops and says so.
    if (json === null)
      throw new Error(`oidc_signing_keys: ключ ${kid} не открывается этим SECRET_KEY`);
    return JSON.parse(json) as JWK;
  }
}

function boundTo(kid: string): string {
  return `oidc-signing-key:${kid}`;
}

function generateJwk(alg: Algorithm, kid: string): JWK {
  const { privateKey } =
    alg === 'RS256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid, alg, use: 'sig' } as JWK;
}
