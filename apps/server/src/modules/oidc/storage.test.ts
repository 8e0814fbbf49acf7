// The provider's storage (adapter.ts) and signing keys (signing-keys.ts) on the portal's database:
// PGlite by default, PostgreSQL with TEST_DATABASE_URL.
import { eq, sql } from 'drizzle-orm';
import type { JWK } from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/test-database.js';
import { ManualClock } from '../../adapters/clock.js';
import type { Database } from '../../db/database.js';
import { SecretBox } from '../two-factor/index.js';
import { OidcModelStore, withRequestReads } from './adapter.js';
import { oidcData } from './data-owner.js';
import { oidcSigningKeys } from './schema.js';
import {
  ACTIVATION_DELAY_MS,
  PUBLISHED_AFTER_RETIREMENT_MS,
  SEAL_PURPOSE,
  SigningKeys,
} from './signing-keys.js';

const SECRET_KEY = 'oidc-test-secret-key-0123456789-abcdef';
let database: Database;
const clock = new ManualClock();

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const store = (kind: string) => new OidcModelStore({ db: database.db, clock, kind });

describe('the provider’s storage', () => {
  it('keeps each model by kind and id, finds it by user code and uid, and replaces it on upsert', async () => {
    const codes = store('DeviceCode');
    await codes.upsert('dc-1', { grantId: 'g-1', userCode: 'ABCD-EFGH', uid: 'u-1', exp: 1 }, 600);
    expect(await codes.find('dc-1')).toEqual({
      grantId: 'g-1',
      userCode: 'ABCD-EFGH',
      uid: 'u-1',
      exp: 1,
    });
    expect(await codes.findByUserCode('ABCD-EFGH')).toMatchObject({ grantId: 'g-1' });
    expect(await codes.findByUid('u-1')).toMatchObject({ grantId: 'g-1' });
    // The same id is another model under another kind.
    expect(await store('Session').find('dc-1')).toBeUndefined();
    await codes.upsert('dc-1', { grantId: 'g-1', userCode: 'ABCD-EFGH', uid: 'u-1', exp: 2 }, 600);
    expect(await codes.find('dc-1')).toMatchObject({ exp: 2 });
    await codes.destroy('dc-1');
    expect(await codes.find('dc-1')).toBeUndefined();
  });

  it('answers a consumed model with the moment it was consumed', async () => {
    const codes = store('AuthorizationCode');
    await codes.upsert('ac-1', { grantId: 'g-2' }, 60);
    expect((await codes.find('ac-1'))?.consumed).toBeUndefined();
    await codes.consume('ac-1');
    expect((await codes.find('ac-1'))?.consumed).toBe(Math.floor(clock.now().getTime() / 1000));
  });

  it('lets one of many parallel uses win; the others are a reuse: the grant goes, invalid_grant', async () => {
    const codes = store('AuthorizationCode');
    await store('Grant').upsert('g-race', { accountId: 'a' }, 600);
    await codes.upsert('ac-race', { grantId: 'g-race' }, 60);
    await store('AccessToken').upsert('at-race', { grantId: 'g-race' }, 600);
    await store('AccessToken').upsert('at-other', { grantId: 'g-other' }, 600);
    const uses = await Promise.allSettled(
      Array.from({ length: 20 }, () => codes.consume('ac-race')),
    );
    expect(uses.filter((use) => use.status === 'fulfilled')).toHaveLength(1);
    for (const use of uses.filter((each) => each.status === 'rejected')) {
      expect((use as PromiseRejectedResult).reason).toMatchObject({ error: 'invalid_grant' });
    }
    expect(await codes.find('ac-race')).toBeUndefined();
    expect(await store('AccessToken').find('at-race')).toBeUndefined();
    expect(await store('Grant').find('g-race')).toBeUndefined();
    expect(await store('AccessToken').find('at-other')).toBeDefined();
  });

  it('revokes a grant: every model of it, of every kind, and nothing else', async () => {
    await store('AccessToken').upsert('at-1', { grantId: 'g-3' }, 600);
    await store('RefreshToken').upsert('rt-1', { grantId: 'g-3' }, 600);
    await store('RefreshToken').upsert('rt-2', { grantId: 'g-4' }, 600);
    await store('RefreshToken').revokeByGrantId('g-3');
    expect(await store('AccessToken').find('at-1')).toBeUndefined();
    expect(await store('RefreshToken').find('rt-1')).toBeUndefined();
    expect(await store('RefreshToken').find('rt-2')).toBeDefined();
  });

  it('in a request, a token read brings its grant and session: each answered once, all forgotten at a write', async () => {
    await store('Grant').upsert('g-ahead', { accountId: 'a' }, 600);
    await store('Session').upsert('s-ahead', { uid: 'u-ahead', accountId: 'a' }, 600);
    const tokenPayload = { grantId: 'g-ahead', sessionUid: 'u-ahead', expiresWithSession: true };
    await store('AccessToken').upsert('at-ahead', tokenPayload, 600);
    // Gone from the table behind the adapter's back: what is still answered was read with the token.
    const removeGrantAndSession = () =>
      database.db.execute(sql`DELETE FROM oidc_models WHERE id IN ('g-ahead', 's-ahead')`);
    const seen = await withRequestReads(async () => {
      const token = await store('AccessToken').find('at-ahead');
      await removeGrantAndSession();
      return {
        token,
        grant: await store('Grant').find('g-ahead'),
        session: await store('Session').findByUid('u-ahead'),
        grantAgain: await store('Grant').find('g-ahead'),
      };
    });
    expect(seen).toEqual({
      token: tokenPayload,
      grant: { accountId: 'a' },
      session: { uid: 'u-ahead', accountId: 'a' },
      grantAgain: undefined,
    });
    await store('Grant').upsert('g-ahead', { accountId: 'a' }, 600);
    await store('Session').upsert('s-ahead', { uid: 'u-ahead', accountId: 'a' }, 600);
    const afterWrite = await withRequestReads(async () => {
      await store('AccessToken').find('at-ahead');
      await removeGrantAndSession();
      await store('AccessToken').upsert('at-other-write', { grantId: 'g-x' }, 600);
      return [await store('Grant').find('g-ahead'), await store('Session').findByUid('u-ahead')];
    });
    expect(afterWrite).toEqual([undefined, undefined]);
    // Outside a request every find asks the table.
    await store('Grant').upsert('g-ahead', { accountId: 'a' }, 600);
    await store('AccessToken').find('at-ahead');
    await removeGrantAndSession();
    expect(await store('Grant').find('g-ahead')).toBeUndefined();
  });

  it('in a request, a token whose grant is gone finds no grant', async () => {
    await store('RefreshToken').upsert('rt-orphan', { grantId: 'g-gone' }, 600);
    const grant = await withRequestReads(async () => {
      expect(await store('RefreshToken').find('rt-orphan')).toEqual({ grantId: 'g-gone' });
      return store('Grant').find('g-gone');
    });
    expect(grant).toBeUndefined();
  });

  it('is purged of what expired a day ago, and erased with the account it names', async () => {
    const tokens = store('AccessToken');
    await tokens.upsert('old', { accountId: 'someone' }, 60);
    await tokens.upsert('new', { accountId: 'someone-else' }, 60);
    clock.advance(24 * 60 * 60_000 + 5 * 60_000);
    await tokens.upsert('new', { accountId: 'someone-else' }, 60);
    const purged = await oidcData.purge!(database.db, clock.now());
    expect(purged.oidc_models).toBeGreaterThanOrEqual(1);
    expect(await tokens.find('old')).toBeUndefined();
    expect(await tokens.find('new')).toBeDefined();
    await database.db.transaction((tx) =>
      oidcData.erase!(tx, { userId: 'someone-else', emailKey: '', afterCommit: () => {} }),
    );
    expect(await tokens.find('new')).toBeUndefined();
  });
});

describe('the signing keys', () => {
  it('are made on the first start, kept sealed, and the same at the next start', async () => {
    const first = await new SigningKeys({ db: database.db, clock, secretKey: SECRET_KEY }).load();
    expect(first.map((key) => key.alg).sort()).toEqual(['ES256', 'RS256']);
    const second = await new SigningKeys({ db: database.db, clock, secretKey: SECRET_KEY }).load();
    expect(second).toEqual(first);

    // Nothing of a private key in the database: neither its parts nor the JWK's shape.
    const rows = await database.db.select().from(oidcSigningKeys);
    expect(rows).toHaveLength(2);
    const stored = JSON.stringify(rows);
    for (const key of first) {
      expect(stored).not.toContain(key.d);
      expect(stored).not.toContain(key.x ?? key.n);
    }
    expect(stored).not.toMatch(/"d"|PRIVATE KEY/);
  });

  it('are made once when two processes start together', async () => {
    await database.db.execute(sql`DELETE FROM oidc_signing_keys`);
    const starts = [1, 2, 3].map(() =>
      new SigningKeys({ db: database.db, clock, secretKey: SECRET_KEY }).load(),
    );
    const [one, two, three] = await Promise.all(starts);
    expect(two).toEqual(one);
    expect(three).toEqual(one);
    expect(await database.db.select().from(oidcSigningKeys)).toHaveLength(2);
  });

  it('stop the start under another SECRET_KEY, naming the key', async () => {
    await expect(
      new SigningKeys({ db: database.db, clock, secretKey: `${SECRET_KEY}-other` }).load(),
    ).rejects.toThrow(/не открывается этим SECRET_KEY/);
  });

  it('rotate: the new keys are published first, sign after the delay, the old leave once their tokens expired', async () => {
    await database.db.execute(sql`DELETE FROM oidc_signing_keys`);
    const keys = new SigningKeys({ db: database.db, clock, secretKey: SECRET_KEY });
    const signing = (jwks: JWK[]) => jwks.filter((key) => !key.key_ops).map((key) => key.kid);
    const verifyOnly = (jwks: JWK[]) =>
      jwks.filter((key) => key.key_ops?.join() === 'verify').map((key) => key.kid);
    const before = await keys.load();
    expect(signing(before)).toHaveLength(2);

    const rotated = await database.db.transaction((tx) => keys.rotate(tx));
    expect(rotated?.added.map((key) => [key.alg, key.state])).toEqual([
      ['RS256', 'next'],
      ['ES256', 'next'],
    ]);
    expect(rotated?.retired.map((key) => key.kid).sort()).toEqual(signing(before).sort());
    const added = rotated!.added.map((key) => key.kid);
    // Published at once, but only for verifying; the old keys still sign.
    const published = await keys.load();
    expect(signing(published).sort()).toEqual(signing(before).sort());
    expect(verifyOnly(published).sort()).toEqual([...added].sort());
    // One rotation at a time.
    expect(await database.db.transaction((tx) => keys.rotate(tx))).toBeNull();

    clock.advance(ACTIVATION_DELAY_MS - 1);
    expect(signing(await keys.load()).sort()).toEqual(signing(before).sort());
    clock.advance(1);
    const switched = await keys.load();
    expect(signing(switched).sort()).toEqual([...added].sort());
    expect(verifyOnly(switched).sort()).toEqual(signing(before).sort());
    expect((await keys.list()).map((key) => key.state).sort()).toEqual([
      'retired',
      'retired',
      'signing',
      'signing',
    ]);

    clock.advance(PUBLISHED_AFTER_RETIREMENT_MS - 1);
    expect(await keys.load()).toHaveLength(4);
    expect(await oidcData.purge!(database.db, clock.now())).toMatchObject({ oidc_signing_keys: 0 });
    clock.advance(1);
    expect((await keys.load()).map((key) => key.kid).sort()).toEqual([...added].sort());
    expect(await oidcData.purge!(database.db, clock.now())).toMatchObject({ oidc_signing_keys: 2 });
    expect((await keys.list()).map((key) => key.kid).sort()).toEqual([...added].sort());
  });

  it("seal with a key of their own, and seal again the keys sealed with the authenticator secrets' key", async () => {
    await database.db.execute(sql`DELETE FROM oidc_signing_keys`);
    const keys = new SigningKeys({ db: database.db, clock, secretKey: SECRET_KEY });
    const [first] = await keys.load();
    // The way the first version sealed it.
    const legacy = new SecretBox({ secretKey: SECRET_KEY });
    const sealed = legacy.seal(JSON.stringify(first), `oidc-signing-key:${first!.kid}`);
    await database.db
      .update(oidcSigningKeys)
      .set({ sealedJwk: sealed, sealedWith: 'totp-secret:v1' })
      .where(eq(oidcSigningKeys.kid, first!.kid!));

    expect((await keys.load()).find((key) => key.kid === first!.kid)).toEqual(first);
    const [row] = await database.db
      .select()
      .from(oidcSigningKeys)
      .where(eq(oidcSigningKeys.kid, first!.kid!));
    expect(row!.sealedWith).toBe(SEAL_PURPOSE);
    expect(row!.sealedJwk).not.toBe(sealed);
    // Not the authenticator secrets' key any more, but its own.
    expect(legacy.open(row!.sealedJwk, `oidc-signing-key:${first!.kid}`)).toBeNull();
    const own = new SecretBox({ secretKey: SECRET_KEY, purpose: SEAL_PURPOSE });
    expect(JSON.parse(own.open(row!.sealedJwk, `oidc-signing-key:${first!.kid}`)!)).toEqual(first);
  });
});
