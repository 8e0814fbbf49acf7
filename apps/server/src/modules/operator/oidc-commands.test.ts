// `oidc-keys`, `oidc-keys rotate` (and `--now`, for a leaked key) and `oidc-clients` of the
// operator's tool, run in the process against a test app with the provider's clients.
import { eq } from 'drizzle-orm';
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import { expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import {
  CLIENTS,
  clientsSetting,
  discoverSite,
  ISSUER,
  SECRET,
  signInToPortal,
  signInToSite,
} from '../../../test/support/oidc-site.js';
import { runAdminIn } from '../../../test/support/operator-tool.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { operatorActions } from './schema.js';

const testApp = createTestApp({ config: { OIDC_CLIENTS: clientsSetting(CLIENTS) } });

const admin = async (...argv: string[]) => runAdminIn((await testApp).app, ...argv);

const recorded = async (command: string) =>
  (await testApp).database.db
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.command, command));
const rotations = () => recorded('oidc-keys rotate');

it('lists the signing keys, rotates them once at a time with a record, and refuses a second rotation meanwhile', async () => {
  const listed = await admin('oidc-keys');
  expect(listed.code).toBe(0);
  expect(listed.out.match(/подписывает$/gm)).toHaveLength(2);
  expect(listed.out).toMatch(/RS256/);
  expect(listed.out).toMatch(/ES256/);

  const anonymous = await admin('oidc-keys', 'rotate');
  expect(anonymous.code).toBe(2);
  expect(anonymous.err).toMatch(/--operator/);
  expect(await rotations()).toHaveLength(0);

  const rotated = await admin('oidc-keys', 'rotate', '--operator', 'anna', '--reason', 'плановая');
  expect(rotated.code, rotated.err).toBe(0);
  expect(rotated.out).toMatch(/Новые ключи опубликованы; подписывать начнут/);
  const [record] = await rotations();
  expect(record).toMatchObject({ operator: 'anna', reason: 'плановая', accountId: null });
  expect((record!.details.added as unknown[]).length).toBe(2);
  expect((record!.details.retired as unknown[]).length).toBe(2);

  const after = await admin('oidc-keys');
  expect(after.out.match(/подписывает$/gm)).toHaveLength(2);
  expect(after.out.match(/опубликован, подпишет позже$/gm)).toHaveLength(2);

  const again = await admin('oidc-keys', 'rotate', '--operator', 'anna');
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/Смена ключей уже идёт/);
  expect(await rotations()).toHaveLength(1);
  expect((await admin('oidc-keys', 'spin')).code).toBe(2);
});

it('rotates at once for a leaked key: the running provider drops every old key at its next re-read, and their tokens stop verifying', async () => {
  const t = await testApp;
  const site = await discoverSite(t.app);
  const session = await signInToPortal(t, (await createUser(t)).userName);
  const jwks = async () => (await t.app.inject({ url: '/oidc/jwks' })).json<JSONWebKeySet>();
  const verifies = async (idToken: string, keys: JSONWebKeySet) =>
    jwtVerify(idToken, createLocalJWKSet(keys), { issuer: ISSUER, audience: 'hosting' }).then(
      () => true,
      () => false,
    );
  const signedBefore = (await signInToSite(t.app, site, session)).id_token!;
  const publishedBefore = await jwks();
  expect(await verifies(signedBefore, publishedBefore)).toBe(true);
  const listedBefore = await t.app.deps.oidcSigningKeys.list();

  const withoutReason = await admin('oidc-keys', 'rotate', '--now', '--operator', 'anna');
  expect(withoutReason.code).toBe(2);
  expect(withoutReason.err).toMatch(/--reason/);
  expect((await admin('oidc-keys', '--now')).code).toBe(2);
  expect(await t.app.deps.oidcSigningKeys.list()).toEqual(listedBefore);

  const rotated = await admin(
    ...['oidc-keys', 'rotate', '--now', '--operator', 'anna', '--reason', 'ключ утёк'],
  );
  expect(rotated.code, rotated.err).toBe(0);
  expect(rotated.out).toMatch(/Новые ключи подписывают с этого момента/);
  expect(rotated.out).toMatch(/Подписанные ими токены больше не проверяются/);
  const [record] = await recorded('oidc-keys rotate --now');
  expect(record).toMatchObject({ operator: 'anna', reason: 'ключ утёк', accountId: null });
  const added = (record!.details.added as { kid: string }[]).map((key) => key.kid);
  const withdrawn = (record!.details.withdrawn as { kid: string }[]).map((key) => key.kid);
  expect(added).toHaveLength(2);
  // Every key that was published, the next ones of a rotation under way included.
  expect(withdrawn.sort()).toEqual(listedBefore.map((key) => key.kid).sort());
  expect(withdrawn).toEqual(expect.arrayContaining(publishedBefore.keys.map((key) => key.kid)));
  const listed = await admin('oidc-keys');
  expect(listed.out.match(/подписывает$/gm)).toHaveLength(2);
  for (const kid of withdrawn) expect(listed.out).not.toContain(kid);

  // The running portal until its re-read: the old keys, which still verify the old token.
  expect(await jwks()).toEqual(publishedBefore);
  expect(await t.app.deps.oidcProvider.refresh()).toBe(true);
  const publishedAfter = await jwks();
  expect(publishedAfter.keys.map((key) => key.kid).sort()).toEqual([...added].sort());
  expect(publishedAfter.keys.every((key) => !key.key_ops)).toBe(true);
  expect(await verifies(signedBefore, publishedAfter)).toBe(false);
  const signedAfter = (await signInToSite(t.app, site, session)).id_token!;
  expect(added).toContain(decodeProtectedHeader(signedAfter).kid);
  expect(await verifies(signedAfter, publishedAfter)).toBe(true);
});

it('lists the clients of OIDC_CLIENTS without their secrets', async () => {
  const { code, out } = await admin('oidc-clients');
  expect(code).toBe(0);
  expect(out).toMatch(
    /hosting\s+Хостинг\s+authorization_code, refresh_token\s+https:\/\/hosting\.example\.com\/oidc\/callback/,
  );
  expect(out).toMatch(
    /launcher\s+—\s+authorization_code, refresh_token\s+http:\/\/127\.0\.0\.1\/callback/,
  );
  expect(out).toMatch(/shop/);
  expect(out).not.toContain(SECRET);
});
