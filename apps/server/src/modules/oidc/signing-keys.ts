/**
 * The provider's signing keys: RS256 (which every library accepts) and ES256, kept in
 * `oidc_signing_keys` with each private JWK sealed by a secret box of its own purpose
 * (AES-256-GCM under a key derived from SECRET_KEY for the signing keys alone, bound to the key's
 * id). The database alone never yields a private key.
 *
 * Rotation (`npm run admin -- oidc-keys rotate`, modules/operator/oidc-commands.ts) is made so that
 * several processes, each re-reading the keys every `RELOAD_EVERY_S` (plugin.ts), never disagree
 * in a way a client sees:
 *
 *   rotate at T ── new key published (verify only) ── T + ACTIVATION_DELAY: the new key signs,
 *   the old one stops signing (its `retired_at`) ── + SIGNED_TOKEN_TTL_S + RELOAD_EVERY_S: the old
 *   one is no longer published (dropped; housekeeping deletes the row).
 *
 * The delay is longer than several re-read periods, so every process publishes the new key before
 * any signs with it; a process that re-reads late signs with the old key a little longer, which
 * is still published everywhere.
 *
 * A leaked key cannot wait for that (`oidc-keys rotate --now`, `rotateNow`): every key is deleted
 * and new ones sign at once. Each process stops publishing the old keys at its next re-read, and
 * every token they signed then fails verification: that is the point. Until then a process may
 * still sign with an old key, or publish only the new ones while another signs with an old one.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { and, isNull, lte, sql } from 'drizzle-orm';
import type { JWK } from 'oidc-provider';
import type { Clock } from '../../adapters/clock.js';
import type { Db, Executor } from '../../db/database.js';
import { SecretBox, TOTP_SECRET_PURPOSE } from '../two-factor/index.js';
import { SIGNED_TOKEN_TTL_S } from './provider.js';
import { oidcSigningKeys } from './schema.js';

/** RS256 first: the algorithm a client gets unless it asks for another. */
const ALGORITHMS = ['RS256', 'ES256'] as const;
type Algorithm = (typeof ALGORITHMS)[number];

/** The signing keys' own box: never the key that seals the authenticator secrets. */
export const SEAL_PURPOSE = 'oidc-signing-key:v1';
/** How often every process reads the keys again (plugin.ts). */
export const RELOAD_EVERY_S = 60;
/** From a rotation until the new key signs: five re-read periods, so every process has it. */
export const ACTIVATION_DELAY_MS = 5 * RELOAD_EVERY_S * 1000;
/**
 * How long a key that stopped signing stays published: the longest life of a token it signed,
 * plus a re-read period for a process that signed with it a little late.
 */
export const PUBLISHED_AFTER_RETIREMENT_MS = (SIGNED_TOKEN_TTL_S + RELOAD_EVERY_S) * 1000;

/** A key's part in the JWKS now: `next` published, `signing` signs, `retired` still published. */
export type KeyState = 'next' | 'signing' | 'retired' | 'dropped';

export interface KeyInfo {
  kid: string;
  alg: string;
  createdAt: Date;
  signsFrom: Date;
  retiredAt: Date | null;
  /** When it leaves the JWKS; null while it has no successor. */
  droppedAt: Date | null;
  state: KeyState;
}

export interface SigningKeysDeps {
  db: Db;
  clock: Clock;
  secretKey: string;
}

type KeyRow = typeof oidcSigningKeys.$inferSelect;

export class SigningKeys {
  private readonly box: SecretBox;
  /** The box the first version sealed keys with: read once, then sealed again in `box`. */
  private readonly legacyBox: SecretBox;

  constructor(private readonly deps: SigningKeysDeps) {
    this.box = new SecretBox({ secretKey: deps.secretKey, purpose: SEAL_PURPOSE });
    this.legacyBox = new SecretBox({ secretKey: deps.secretKey, purpose: TOTP_SECRET_PURPOSE });
  }

  /**
   * The private JWKs the provider publishes, each signing key first; every other key (the next
   * one, a retired one) has `key_ops: ['verify']`, so the library never signs with it. Under a
   * transaction-scoped lock: a missing algorithm's key is made (the first start, several
   * processes starting together make one each), and keys sealed the old way are sealed again.
   */
  async load(): Promise<JWK[]> {
    return this.deps.db.transaction(async (tx) => {
      await lockKeys(tx);
      const now = this.deps.clock.now();
      const rows = await tx.select().from(oidcSigningKeys);
      for (const alg of ALGORITHMS) {
        if (rows.some((row) => row.alg === alg && !row.retiredAt)) continue;
        rows.push(await this.insertKey(tx, alg, now));
      }
      for (const row of rows) {
        if (row.sealedWith !== SEAL_PURPOSE) await this.reseal(tx, row);
      }
      return rows
        .map((row) => ({ row, state: stateOf(row, now) }))
        .filter(({ state }) => state !== 'dropped')
        .sort((a, b) => rank(a.state) - rank(b.state) || +b.row.signsFrom - +a.row.signsFrom)
        .map(({ row, state }) => {
          const jwk = this.open(row);
          return state === 'signing' ? jwk : { ...jwk, key_ops: ['verify'] };
        });
    });
  }

  /** Every key kept, newest first, with its state now (no private part is opened). */
  async list(executor: Executor = this.deps.db): Promise<KeyInfo[]> {
    const now = this.deps.clock.now();
    const rows = await executor.select().from(oidcSigningKeys);
    return rows.sort((a, b) => +b.signsFrom - +a.signsFrom).map((row) => infoOf(row, now));
  }

  /**
   * Brings in a new key of each algorithm, signing from now + ACTIVATION_DELAY_MS; the keys that
   * sign now stop then. Refused (null) while a rotation is still waiting for its keys to sign.
   * Runs in the caller's transaction, so the operator's record goes with it.
   */
  async rotate(tx: Executor): Promise<{ added: KeyInfo[]; retired: KeyInfo[] } | null> {
    await lockKeys(tx);
    const now = this.deps.clock.now();
    const rows = await tx.select().from(oidcSigningKeys);
    if (rows.some((row) => stateOf(row, now) === 'next')) return null;
    const signsFrom = new Date(now.getTime() + ACTIVATION_DELAY_MS);
    const retired = await tx
      .update(oidcSigningKeys)
      .set({ retiredAt: signsFrom })
      .where(and(isNull(oidcSigningKeys.retiredAt), lte(oidcSigningKeys.signsFrom, now)))
      .returning();
    const added: KeyRow[] = [];
    for (const alg of ALGORITHMS) added.push(await this.insertKey(tx, alg, now, signsFrom));
    return {
      added: added.map((row) => infoOf(row, now)),
      retired: retired.map((row) => infoOf(row, now)),
    };
  }

  /**
   * An emergency for a leaked key: every key kept (signing, next, retired) is deleted, so none is
   * published any more (a rotation under way included: its keys sat beside the leaked one), and a
   * new key of each algorithm signs from now. Runs in the caller's transaction, so the operator's
   * record goes with it. Answers the new keys and the withdrawn ones that were still published.
   */
  async rotateNow(tx: Executor): Promise<{ added: KeyInfo[]; withdrawn: KeyInfo[] }> {
    await lockKeys(tx);
    const now = this.deps.clock.now();
    const deleted = await tx.delete(oidcSigningKeys).returning();
    const added: KeyRow[] = [];
    for (const alg of ALGORITHMS) added.push(await this.insertKey(tx, alg, now));
    return {
      added: added.map((row) => infoOf(row, now)),
      withdrawn: deleted.map((row) => infoOf(row, now)).filter((key) => key.state !== 'dropped'),
    };
  }

  private async insertKey(tx: Executor, alg: Algorithm, now: Date, signsFrom = now) {
    const kid = randomUUID();
    const [row] = await tx
      .insert(oidcSigningKeys)
      .values({
        kid,
        alg,
        sealedJwk: this.box.seal(JSON.stringify(generateJwk(alg, kid)), boundTo(kid)),
        sealedWith: SEAL_PURPOSE,
        createdAt: now,
        signsFrom,
      })
      .returning();
    return row!;
  }

  private async reseal(tx: Executor, row: KeyRow) {
    const jwk = this.open(row);
    row.sealedJwk = this.box.seal(JSON.stringify(jwk), boundTo(row.kid));
    row.sealedWith = SEAL_PURPOSE;
    await tx
      .update(oidcSigningKeys)
      .set({ sealedJwk: row.sealedJwk, sealedWith: row.sealedWith })
      .where(sql`${oidcSigningKeys.kid} = ${row.kid}`);
  }

  private open(row: KeyRow): JWK {
    const box = row.sealedWith === SEAL_PURPOSE ? this.box : this.legacyBox;
    const json = box.open(row.sealedJwk, boundTo(row.kid));
    // Another SECRET_KEY than the one that sealed it: the start stops and says so.
    if (json === null)
      throw new Error(`oidc_signing_keys: ключ ${row.kid} не открывается этим SECRET_KEY`);
    return JSON.parse(json) as JWK;
  }
}

/** One process at a time makes, seals again or rotates keys. */
async function lockKeys(tx: Executor) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('oidc_signing_keys'))`);
}

export function stateOf(row: Pick<KeyRow, 'signsFrom' | 'retiredAt'>, now: Date): KeyState {
  if (row.signsFrom > now) return 'next';
  if (!row.retiredAt || row.retiredAt > now) return 'signing';
  if (row.retiredAt.getTime() + PUBLISHED_AFTER_RETIREMENT_MS > now.getTime()) return 'retired';
  return 'dropped';
}

function rank(state: KeyState): number {
  return ['signing', 'next', 'retired', 'dropped'].indexOf(state);
}

function infoOf(row: KeyRow, now: Date): KeyInfo {
  return {
    kid: row.kid,
    alg: row.alg,
    createdAt: row.createdAt,
    signsFrom: row.signsFrom,
    retiredAt: row.retiredAt,
    droppedAt: row.retiredAt
      ? new Date(row.retiredAt.getTime() + PUBLISHED_AFTER_RETIREMENT_MS)
      : null,
    state: stateOf(row, now),
  };
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
