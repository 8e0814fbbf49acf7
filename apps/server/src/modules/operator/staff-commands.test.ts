// `staff grant|revoke|list`: the first admin named from the command line, over the support desk's
// role service (modules/staff/role-service.ts).

import { STAFF_NEEDS_FACTOR } from '@portal/contracts/staff';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { turnOnAuthenticator } from '../../../test/support/auth-helpers.js';
import { createSignedInUser, createUser } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { runAdmin } from './cli.js';
import { operatorActions } from './schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function admin(...argv: string[]) {
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
  return { code, out, err };
}

describe('staff', () => {
  it('grants a role to an account with a factor, lists it, changes it and takes it back, each recorded', async () => {
    const { user, headers } = await createSignedInUser(t);
    await turnOnAuthenticator(t, headers);
    const grant = await admin(
      'staff',
      'grant',
      user.email,
      '--role',
      'admin',
      '--operator',
      'anna',
      '--reason',
      'первый администратор',
    );
    expect(grant).toMatchObject({
      code: 0,
      out: [`Роль выдана: ${user.userName} — admin (Администратор)`],
    });
    const list = await admin('staff', 'list');
    expect(list.code).toBe(0);
    expect(list.out.join('\n')).toContain(user.userName);
    expect(list.out.join('\n')).toContain('anna');
    const change = await admin(
      'staff',
      'grant',
      user.id,
      '--role',
      'support',
      '--operator',
      'anna',
      '--reason',
      'понижен',
    );
    expect(change.out).toEqual([`Роль ${user.userName} изменена: admin → support (Поддержка)`]);
    const revoke = await admin(
      'staff',
      'revoke',
      user.id,
      '--operator',
      'anna',
      '--reason',
      'ушёл',
    );
    expect(revoke).toMatchObject({ code: 0 });
    expect((await admin('staff', 'list')).out).toEqual(['Сотрудников нет']);
    const records = await t.database.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.accountId, user.id))
      .orderBy(asc(operatorActions.seq));
    expect(records.map((row) => [row.command, row.operator, row.role, row.reason])).toEqual([
      ['role_granted', 'anna', null, 'первый администратор'],
      ['role_granted', 'anna', null, 'понижен'],
      ['role_revoked', 'anna', null, 'ушёл'],
    ]);
  });

  it('refuses an account without a passkey or the authenticator (exit 1), and a wrong line (exit 2)', async () => {
    const user = await createUser(t);
    const refused = await admin(
      'staff',
      'grant',
      user.id,
      '--role',
      'support',
      '--operator',
      'anna',
      '--reason',
      'новый',
    );
    expect(refused).toMatchObject({ code: 1, err: [STAFF_NEEDS_FACTOR] });
    expect(
      (await admin('staff', 'grant', user.id, '--operator', 'anna', '--reason', 'x')).code,
    ).toBe(2);
    expect(
      (await admin('staff', 'grant', user.id, '--role', 'admin', '--operator', 'anna')).code,
    ).toBe(2);
    expect(
      (await admin('staff', 'revoke', user.id, '--operator', 'anna', '--reason', 'нет роли')).code,
    ).toBe(1);
    const help = await admin('staff', '--help');
    expect(help.code).toBe(0);
    expect(help.out[0]).toBe('staff — сотрудники поддержки: список, выдать роль, снять роль');
  });
});
