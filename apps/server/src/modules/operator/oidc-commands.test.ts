// `oidc-keys`, `oidc-keys rotate` and `oidc-clients` of the operator's tool, run in the process
// against a test app with the provider's clients.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { CLIENTS, clientsSetting, SECRET } from '../../../test/support/oidc-site.js';
import { createTestApp } from '../../../test/support/test-app.js';
import { runAdmin } from './cli.js';
import { operatorActions } from './schema.js';

const testApp = createTestApp({ config: { OIDC_CLIENTS: clientsSetting(CLIENTS) } });

async function admin(...argv: string[]) {
  const t = await testApp;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(
    {
      deps: t.app.deps,
      log: t.app.log,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    },
    argv,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const rotations = async () =>
  (await testApp).database.db
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.command, 'oidc-keys rotate'));

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
