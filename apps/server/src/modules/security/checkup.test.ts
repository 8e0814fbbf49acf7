import type { CheckupAnswer } from '@portal/contracts/checkup';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH_API as API,
  addressSequence,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import { createSignedInUser, createUser, latestCodeTo } from '../../../test/support/fixtures.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { twoFactorRecoveryCodes } from '../two-factor/schema.js';
import { type CheckupFacts, checkupOf } from './checkup-service.js';

const DAY = 24 * 60 * 60_000;
let testApp: TestApp;
const nextIp = addressSequence('10.74');

beforeAll(async () => {
  testApp = await createTestApp();
});

async function checkup(headers: Record<string, string>): Promise<CheckupAnswer> {
  const answer = await testApp.app.inject({ method: 'GET', url: `${API}/checkup`, headers });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json();
}

const undone = (answer: CheckupAnswer) =>
  answer.items.filter((entry) => !entry.isDone).map((entry) => entry.item);
const listed = (answer: CheckupAnswer) => answer.items.map((entry) => entry.item);

describe('the checkup rules', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const base: CheckupFacts = {
    user: {
      confirmedAt: now,
      telegramId: null,
      signInAlertsByEmail: true,
      passwordHash: 'hash',
      isPasswordCommon: false,
    },
    secondFactor: { isOn: true, isAuthenticatorOn: true, recoveryCodesLeft: 3 },
    sessionActivity: [now],
    now,
  };

  it('is all done for a well-kept account', () => {
    expect(checkupOf(base)).toEqual({
      items: [
        { item: 'email_confirmed', isDone: true },
        { item: 'second_factor', isDone: true },
        { item: 'recovery_codes', isDone: true },
        { item: 'sign_in_alerts', isDone: true },
        { item: 'idle_sessions', isDone: true },
        { item: 'password_not_common', isDone: true },
      ],
      missing: 0,
    });
  });

  it('counts recovery codes only while the authenticator is on, and wants three', () => {
    const two = { ...base.secondFactor, recoveryCodesLeft: 2 };
    expect(undone(checkupOf({ ...base, secondFactor: two }))).toEqual(['recovery_codes']);
    const off = { isOn: false, isAuthenticatorOn: false, recoveryCodesLeft: 0 };
    const answer = checkupOf({ ...base, secondFactor: off });
    expect(undone(answer)).toEqual(['second_factor']);
    expect(listed(answer)).not.toContain('recovery_codes');
  });

  it('takes Telegram or the e-mail alerts as sign-in alerts', () => {
    const silent = { ...base.user, signInAlertsByEmail: false };
    expect(undone(checkupOf({ ...base, user: silent }))).toEqual(['sign_in_alerts']);
    expect(undone(checkupOf({ ...base, user: { ...silent, telegramId: 42 } }))).toEqual([]);
  });

  it('flags a live session unused for more than 90 days, not one of 90', () => {
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    expect(undone(checkupOf({ ...base, sessionActivity: [now, at(90)] }))).toEqual([]);
    expect(undone(checkupOf({ ...base, sessionActivity: [now, at(91)] }))).toEqual([
      'idle_sessions',
    ]);
  });

  it('flags a common password, and none for an account without a password', () => {
    const common = { ...base.user, isPasswordCommon: true };
    expect(undone(checkupOf({ ...base, user: common }))).toEqual(['password_not_common']);
    expect(undone(checkupOf({ ...base, user: { ...common, passwordHash: null } }))).toEqual([]);
    expect(checkupOf({ ...base, user: { ...base.user, confirmedAt: null } }).missing).toBe(1);
  });
});

describe('GET checkup', () => {
  it('asks a new account for a second factor only; then for recovery codes when few are left', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    const fresh = await checkup(headers);
    expect(undone(fresh)).toEqual(['second_factor']);
    expect(fresh.missing).toBe(1);
    expect(listed(fresh)).not.toContain('recovery_codes');

    await turnOnAuthenticator(testApp, headers);
    expect(await checkup(headers)).toMatchObject({ missing: 0 });
    // Eight of the ten codes spent: two left.
    const unused = await testApp.database.db
      .select({ id: twoFactorRecoveryCodes.id })
      .from(twoFactorRecoveryCodes)
      .where(
        and(eq(twoFactorRecoveryCodes.userId, user.id), isNull(twoFactorRecoveryCodes.usedAt)),
      );
    for (const code of unused.slice(0, 8)) {
      await testApp.database.db
        .update(twoFactorRecoveryCodes)
        .set({ usedAt: sql`now()` })
        .where(eq(twoFactorRecoveryCodes.id, code.id));
    }
    expect(undone(await checkup(headers))).toEqual(['recovery_codes']);
  });

  it('takes a passkey for a second factor, with no recovery codes to count', async () => {
    const { user, headers } = await createSignedInUser(testApp);
    await testApp.database.db.execute(sql`
      INSERT INTO passkeys (user_id, credential_id, public_key, name, created_at)
      VALUES (${user.id}, ${`checkup-${user.id}`}, 'key', 'Ноутбук', now())`);
    const answer = await checkup(headers);
    expect(undone(answer)).toEqual([]);
    expect(listed(answer)).not.toContain('recovery_codes');
  });

  it('asks for sign-in alerts once the e-mail alerts are off and no Telegram is linked', async () => {
    const { headers } = await createSignedInUser(testApp);
    await testApp.app.inject({
      method: 'PUT',
      url: `${API}/sign-in-alerts`,
      headers,
      payload: { byEmail: false },
    });
    expect(undone(await checkup(headers))).toEqual(['second_factor', 'sign_in_alerts']);
  });

  it('flags a common password found at sign-in, and clears it once the password changes', async () => {
    // Set before the list refused it (written straight to the database).
    const user = await createUser(testApp, { password: 'password1' });
    const login = await testApp.app.inject({
      method: 'POST',
      url: `${API}/login`,
      payload: { usernameOrEmail: user.userName, password: 'password1' },
      remoteAddress: nextIp(),
    });
    expect(login.statusCode, login.body).toBe(200);
    const headers = { authorization: `Bearer ${login.json().token}` };
    expect(undone(await checkup(headers))).toEqual(['second_factor', 'password_not_common']);

    const code = await testApp.app.inject({
      method: 'POST',
      url: '/portal/auth/password/change-code',
      headers,
    });
    expect(code.statusCode, code.body).toBe(200);
    const change = await testApp.app.inject({
      method: 'POST',
      url: '/portal/auth/password/change',
      headers,
      payload: {
        oldPassword: 'password1',
        newPassword: 'Quartz-Lantern7',
        code: await latestCodeTo(testApp, user.email),
      },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(undone(await checkup(headers))).toEqual(['second_factor']);
  });

  it('needs a session', async () => {
    expect((await testApp.app.inject({ method: 'GET', url: `${API}/checkup` })).statusCode).toBe(
      401,
    );
  });
});
