// Support's actions on the pages: the reason each needs, the one record each writes, the same
// outcome as the command line's, and a consistent account under 100 calls at once.

import { STAFF_REASON_REQUIRED } from '@portal/contracts/staff';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessionStatus, turnOnAuthenticator } from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  createUser,
  latestCodeTo,
  signIn,
} from '../../../test/support/fixtures.js';
import {
  adminCommand,
  cliActor,
  createStaffMember,
  proveStaff,
  STAFF_API,
  type StaffMemberFixture,
} from '../../../test/support/staff.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import { users } from '../accounts/schema.js';
import { loginCounterKeys } from '../auth/index.js';
import { loginThrottles } from '../auth/schema.js';
import { operatorActions } from '../operator/schema.js';
import { securityEvents } from '../security-log/schema.js';

let t: TestApp;
let member: StaffMemberFixture;

beforeAll(async () => {
  t = await createTestApp();
  member = await createStaffMember(t, 'support');
});

function post(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: member.headers, payload });
}

const admin = (...argv: string[]) => adminCommand(t, ...argv);

async function recordsOf(accountId: string) {
  return t.database.db
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.accountId, accountId))
    .orderBy(asc(operatorActions.seq));
}

async function allRecords() {
  return t.database.db.select().from(operatorActions).orderBy(asc(operatorActions.seq));
}

/** What an action leaves of an account, the moments and ids aside. */
async function stateOf(userId: string) {
  const { db } = t.database;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  const [throttle] = await db
    .select()
    .from(loginThrottles)
    .where(eq(loginThrottles.subject, loginCounterKeys.account(userId)));
  const events = await db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId))
    .orderBy(asc(securityEvents.kind));
  const records = await recordsOf(userId);
  return {
    isBlocked: user!.blockedAt !== null,
    blockedReason: user!.blockedReason,
    liveSessions: (await t.app.deps.sessions.listActive(userId)).length,
    throttle: throttle ? throttle.failures : null,
    hasAuthenticator: await t.app.deps.twoFactor.isEnabled(userId),
    events: events.map((event) => event.kind),
    records: records.map((row) => ({
      kind: row.command,
      reason: row.reason,
      details: anonymous(row.details),
    })),
  };
}

/** Moments and ids replaced: two accounts' records compare by what they say. */
function anonymous(details: Record<string, unknown>) {
  return JSON.parse(
    JSON.stringify(details)
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<moment>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>'),
  );
}

describe('the reason', () => {
  it('is required for every change: 400 in Russian, nothing changed, nothing recorded', async () => {
    const { user } = await createSignedInUser(t);
    const before = await allRecords();
    for (const body of [{}, { reason: '  ' }, { reason: 'ok' }]) {
      const answer = await post(`${STAFF_API}/accounts/${user.id}/block`, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors.reason).toEqual([STAFF_REASON_REQUIRED]);
    }
    const grant = await post(`${STAFF_API}/roles`, { email: user.email, role: 'support' });
    expect(grant.statusCode).toBe(404); // a support member cannot grant; nothing to learn
    expect((await stateOf(user.id)).isBlocked).toBe(false);
    expect(await allRecords()).toHaveLength(before.length);
  });
});

describe('the record', () => {
  it('every action writes exactly one row, with who, role, reason and address; opening one too', async () => {
    const { user } = await createSignedInUser(t);
    const reason = { reason: 'обращение 7' };
    const calls = [
      () =>
        t.app.inject({
          method: 'GET',
          url: `${STAFF_API}/accounts/${user.id}`,
          headers: member.headers,
        }),
      () => post(`${STAFF_API}/accounts/${user.id}/unlock`, reason),
      () => post(`${STAFF_API}/accounts/${user.id}/end-sessions`, reason),
      () => post(`${STAFF_API}/accounts/${user.id}/block`, reason),
      () => post(`${STAFF_API}/accounts/${user.id}/unblock`, reason),
      () => post(`${STAFF_API}/accounts/${user.id}/factor-reset/code`, reason),
    ];
    for (const [index, call] of calls.entries()) {
      const answer = await call();
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await recordsOf(user.id)).toHaveLength(index + 1);
    }
    const records = await recordsOf(user.id);
    expect(records.map((row) => row.command)).toEqual([
      'account_opened',
      'unlock',
      'end-sessions',
      'block',
      'unblock',
      'factor_reset_code_sent',
    ]);
    for (const row of records) {
      expect(row).toMatchObject({
        operator: member.user.userName,
        actorUserId: member.user.id,
        role: 'support',
        ip: '127.0.0.1',
      });
      expect(row.reason).toBe(row.command === 'account_opened' ? null : 'обращение 7');
    }
    // A refused action records nothing.
    expect((await post(`${STAFF_API}/accounts/${user.id}/unblock`, reason)).statusCode).toBe(409);
    expect(await recordsOf(user.id)).toHaveLength(records.length);
  });
});

describe('the command line and the page', () => {
  const reason = 'обращение 7';
  const route = (userId: string, action: string) =>
    post(`${STAFF_API}/accounts/${userId}/${action}`, { reason });

  /** Two accounts alike: the command line acts on the first, the page on the second. */
  async function twins(prepare: (userId: string) => Promise<void> = async () => {}) {
    const a = await createUser(t);
    const b = await createUser(t);
    await prepare(a.id);
    await prepare(b.id);
    return [a, b] as const;
  }

  async function expectAlike(a: string, b: string) {
    const [viaCli, viaPage] = [await stateOf(a), await stateOf(b)];
    expect(viaPage).toEqual(viaCli);
    const [cliRecord] = (await recordsOf(a)).slice(-1);
    const [pageRecord] = (await recordsOf(b)).slice(-1);
    expect(cliRecord).toMatchObject({ operator: 'anna', role: null, actorUserId: null, ip: null });
    expect(pageRecord).toMatchObject({ role: 'support', actorUserId: member.user.id });
  }

  it('unlock', async () => {
    const [a, b] = await twins(async (userId) => {
      const now = t.clock.now();
      await t.database.db.insert(loginThrottles).values({
        subject: loginCounterKeys.account(userId),
        failures: 10,
        lastFailureAt: now,
        lockedUntil: new Date(now.getTime() + 15 * 60_000),
      });
    });
    await admin('unlock', a.id, '--operator', 'anna', '--reason', reason);
    expect((await route(b.id, 'unlock')).statusCode).toBe(200);
    await expectAlike(a.id, b.id);
    expect((await stateOf(b.id)).events).toEqual(['sign_in_unlocked_by_support']);
  });

  it('end-sessions', async () => {
    const [a, b] = await twins(async (userId) => {
      await signIn(t, userId);
      await signIn(t, userId);
    });
    await admin('end-sessions', a.id, '--operator', 'anna', '--reason', reason);
    expect((await route(b.id, 'end-sessions')).statusCode).toBe(200);
    await expectAlike(a.id, b.id);
    expect((await stateOf(b.id)).liveSessions).toBe(0);
  });

  it('block and unblock', async () => {
    const [a, b] = await twins(async (userId) => {
      await signIn(t, userId);
    });
    await admin('block', a.id, '--operator', 'anna', '--reason', reason);
    expect((await route(b.id, 'block')).statusCode).toBe(200);
    await expectAlike(a.id, b.id);
    expect((await stateOf(b.id)).isBlocked).toBe(true);
    await admin('unblock', a.id, '--operator', 'anna', '--reason', reason);
    expect((await route(b.id, 'unblock')).statusCode).toBe(200);
    await expectAlike(a.id, b.id);
  });

  it('the reset of the second factors (the page by the code the customer read out)', async () => {
    const a = await createSignedInUser(t);
    const b = await createSignedInUser(t);
    await turnOnAuthenticator(t, a.headers);
    await turnOnAuthenticator(t, b.headers);
    await admin('reset-second-factors', a.user.id, '--operator', 'anna', '--reason', reason);
    expect((await route(b.user.id, 'factor-reset/code')).statusCode).toBe(200);
    const wrong = await post(`${STAFF_API}/accounts/${b.user.id}/factor-reset`, {
      reason,
      code: '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(await t.app.deps.twoFactor.isEnabled(b.user.id)).toBe(true);
    const code = await latestCodeTo(t, b.user.email);
    const reset = await post(`${STAFF_API}/accounts/${b.user.id}/factor-reset`, { reason, code });
    expect(reset.statusCode, reset.body).toBe(200);
    // The page's account has one more record: the mailed code.
    const [viaCli, viaPage] = [await stateOf(a.user.id), await stateOf(b.user.id)];
    expect(viaPage.records.map((row) => row.kind)).toEqual([
      'factor_reset_code_sent',
      'reset-second-factors',
    ]);
    expect({ ...viaPage, records: viaPage.records.slice(1) }).toEqual(viaCli);
    expect(viaPage.hasAuthenticator).toBe(false);
    expect(viaPage.events).toContain('second_factors_reset_by_support');
    // The code is spent with the reset.
    const again = await post(`${STAFF_API}/accounts/${b.user.id}/factor-reset`, { reason, code });
    expect(again.statusCode).toBe(400);
  });

  it('letters resend', async () => {
    const letter = () =>
      t.database.db
        .insert(mailOutbox)
        .values({
          toAddress: 'stuck@example.com',
          subject: 'письмо',
          textBody: 'текст',
          htmlBody: '<p>текст</p>',
          status: 'failed',
          attempts: 9,
        })
        .returning();
    const [[a], [b]] = [await letter(), await letter()];
    await admin('letters', 'resend', a!.id, '--operator', 'anna', '--reason', reason);
    const answer = await post(`${STAFF_API}/letters/${b!.id}/resend`, { reason });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'stuck@example.com'));
    expect(rows.map((row) => row.status)).toEqual(['pending', 'pending']);
    const records = (await allRecords()).filter((row) => row.command === 'letters resend');
    expect(records.map((row) => anonymous(row.details))).toEqual([
      anonymous(records[0]!.details),
      anonymous(records[0]!.details),
    ]);
    expect(records.map((row) => row.reason)).toEqual([reason, reason]);
  });
});

describe('100 calls at once', () => {
  it('block, unblock and end-sessions leave one consistent account and one record per change', async () => {
    const { user } = await createSignedInUser(t);
    const actions = ['block', 'unblock', 'end-sessions'] as const;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        post(`${STAFF_API}/accounts/${user.id}/${actions[i % 3]}`, {
          reason: `обращение ${i}`,
        }).then((answer) => ({ action: actions[i % 3]!, status: answer.statusCode })),
      ),
    );
    expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 409)).toEqual([]);
    const done = (action: string) =>
      answers.filter((answer) => answer.action === action && answer.status === 200).length;
    const records = await recordsOf(user.id);
    const recorded = (kind: string) => records.filter((row) => row.command === kind).length;
    for (const action of actions) expect(recorded(action), action).toBe(done(action));
    expect(done('end-sessions')).toBe(33);
    // Blocks and unblocks alternate: the account is blocked when the last change was a block.
    const changes = records
      .filter((row) => row.command !== 'end-sessions')
      .map((row) => row.command);
    changes.forEach((kind, index) => {
      expect(kind).toBe(index % 2 === 0 ? 'block' : 'unblock');
    });
    const state = await stateOf(user.id);
    expect(state.isBlocked).toBe(changes.at(-1) === 'block');
    expect(state.liveSessions).toBe(0);
  });
});

describe('roles on the page', () => {
  it('an admin grants a role to an account with a factor, sees it, and takes it back', async () => {
    const adminMember = await createStaffMember(t, 'admin');
    const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: adminMember.headers, ...(payload ? { payload } : {}) });
    const candidate = await createSignedInUser(t);
    const secret = await turnOnAuthenticator(t, candidate.headers);
    expect(secret).toBeTruthy();
    const grant = await call('POST', `${STAFF_API}/roles`, {
      email: candidate.user.email,
      role: 'finance',
      reason: 'новый сотрудник',
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const list = (await call('GET', `${STAFF_API}/roles`)).json();
    expect(list.items).toContainEqual(
      expect.objectContaining({
        userId: candidate.user.id,
        role: 'finance',
        grantedBy: adminMember.user.userName,
      }),
    );
    // The member's session that carries a staff proof ends with the role; another session stays.
    const other = await signIn(t, candidate.user.id);
    const staffSession = { headers: candidate.headers, secret };
    await proveStaff(t, staffSession);
    const revoke = await call('POST', `${STAFF_API}/roles/${candidate.user.id}/revoke`, {
      reason: 'ушёл',
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(await sessionStatus(t, candidate.headers)).toBe(401);
    expect(await sessionStatus(t, other.headers)).toBe(200);
    const me = await t.app.inject({
      method: 'GET',
      url: `${STAFF_API}/me`,
      headers: other.headers,
    });
    expect(me.statusCode).toBe(404);
    const kinds = (await recordsOf(candidate.user.id)).map((row) => row.command);
    expect(kinds).toEqual(['role_granted', 'role_revoked']);
  });

  it('refuses an account without a passkey or the authenticator', async () => {
    const plain = await createUser(t);
    const refused = t.app.deps.staff.roles.grant(cliActor(), plain, 'support');
    await expect(refused).rejects.toThrow(/ключ доступа или приложение-аутентификатор/);
  });
});
