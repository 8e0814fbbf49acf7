import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACCOUNT_BLOCKED } from '@portal/contracts/messages';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AUTH_API,
  sessionStatus,
  turnOnAuthenticator,
} from '../../../test/support/auth-helpers.js';
import {
  createSignedInUser,
  createUser,
  DEFAULT_PASSWORD,
  signIn,
} from '../../../test/support/fixtures.js';
import { runAdminIn } from '../../../test/support/operator-tool.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  balancesOf,
  createWalletTestApp,
  pressSandboxButton,
  requestTopUp,
} from '../../../test/support/wallet.js';
import { mailOutbox } from '../../adapters/mail-schema.js';
import type { FetchLike } from '../../adapters/tbank/client.js';
import { lockDataDir } from '../../db/data-dir-lock.js';
import { loginCounterKeys } from '../auth/index.js';
import { ledgerEntries, payments } from '../payments/schema.js';
import { securityEvents } from '../security-log/schema.js';
import { operatorActions } from './schema.js';

const MINUTE = 60_000;

// Notifications are lost on the way, so only a reconciliation settles a paid top-up.
const testApp = createWalletTestApp({
  wrap:
    (inner: FetchLike): FetchLike =>
    async (url, init) => {
      if (new URL(url).pathname.endsWith('/notification')) throw new TypeError('connection reset');
      return inner(url, init);
    },
});

let address = 0;
const nextIp = () => `10.77.${Math.floor(++address / 250)}.${address % 250}`;

const admin = async (...argv: string[]) => runAdminIn((await testApp).app, ...argv);

/**
 * `admin`, repeated with the same arguments when the database did not answer in time (a hundred
 * commands at once queue for ten PostgreSQL connections, each allowed 2 s to get one), as an
 * operator repeats a command whose answer was lost: the idempotency key makes that safe.
 */
async function adminRepeatedOnTimeout(...argv: string[]) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await admin(...argv);
    } catch (error) {
      if (attempt >= 5 || !/timeout|timed out/i.test(String(error))) throw error;
    }
  }
}

async function actionsOf(t: TestApp, accountId: string) {
  return t.database.db
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.accountId, accountId))
    .orderBy(operatorActions.seq);
}

async function eventKinds(t: TestApp, userId: string) {
  const rows = await t.database.db
    .select({ kind: securityEvents.kind })
    .from(securityEvents)
    .where(eq(securityEvents.userId, userId));
  return rows.map((row) => row.kind);
}

function login(t: TestApp, usernameOrEmail: string) {
  return t.app.inject({
    method: 'POST',
    url: `${AUTH_API}/login`,
    payload: { usernameOrEmail, password: DEFAULT_PASSWORD },
    remoteAddress: nextIp(),
  });
}

async function expectBalanced(t: TestApp, userId: string) {
  const balances = await balancesOf(t, userId);
  expect(balances.ledger.rub).toBe(balances.kopecks);
  expect(balances.ledger.points).toBe(balances.points);
  expect(balances.kopecks).toBeGreaterThanOrEqual(0);
  expect(balances.points).toBeGreaterThanOrEqual(0);
  return balances;
}

describe('reads', () => {
  it('find: by e-mail, username, id, Telegram id and payment id', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t, { telegramId: 700_123_456 });
    for (const query of [user.email.toUpperCase(), user.userName, user.id, '700123456']) {
      const found = await admin('find', query);
      expect(found.code, query).toBe(0);
      expect(found.out).toContain(user.id);
    }
    const topUp = await requestTopUp(t, { user, headers }, 150);
    expect(topUp.statusCode).toBe(200);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    const byPayment = await admin('find', payment!.id);
    expect(byPayment.code).toBe(0);
    expect(byPayment.out).toContain(user.id);

    expect(byPayment.out).toContain('платёж');

    // A part finds the account; an action never takes a part for the account.
    const part = user.userName.slice(2);
    const byPart = await admin('find', part.toUpperCase());
    expect(byPart.code).toBe(0);
    expect(byPart.out).toContain(user.id);
    expect(byPart.out).toContain('часть');
    const action = await admin('show', part);
    expect(action.code).toBe(1);
    expect(action.err).toContain(`Аккаунт не найден: ${part}`);
    expect((await admin('find', part, '--page', '2')).code).toBe(1);
    expect((await admin('find', part, '--page', '0')).code).toBe(2);

    const none = await admin('find', 'nobody-at-all@example.com');
    expect(none.code).toBe(1);
    expect(none.err).toContain('Ничего не найдено');
    expect((await admin('find')).code).toBe(2);
  });

  it('show: profile, sessions, security events, balances, payments, ledger, services', async () => {
    const t = await testApp;
    const { user } = await createSignedInUser(t);
    await admin(
      'credit',
      user.id,
      '12,50',
      '--currency',
      'rub',
      '--operator',
      'anna',
      '--reason',
      'Компенсация простоя',
    );
    const shown = await admin('show', user.userName, '--ledger', '5');
    expect(shown.code).toBe(0);
    for (const section of [
      'Профиль',
      'Сеансы (1)',
      'События безопасности',
      'Платежи',
      'Журнал операций (последние 5)',
      'Услуги (0)',
    ]) {
      expect(shown.out).toContain(section);
    }
    expect(shown.out).toContain('12,50 ₽');
    expect(shown.out).toContain('Компенсация простоя');
    expect(shown.out).toMatch(/Действия поддержки[\s\S]*anna\s+credit\s+Компенсация простоя/);
    expect((await admin('show', user.id, '--ledger', 'many')).code).toBe(2);
    expect((await admin('show', 'nobody-here')).code).toBe(1);
  });

  it('help: the tool and each command, in Russian; unknown commands and options are usage errors', async () => {
    const help = await admin('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Команды:');
    const blockHelp = await admin('block', '--help');
    expect(blockHelp.code).toBe(0);
    expect(blockHelp.out).toContain('block <аккаунт> --operator <имя> --reason');
    expect((await admin('nonsense')).code).toBe(2);
    const unknown = await admin('find', 'x', '--colour');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Неизвестный параметр --colour');
  });
});

describe('access', () => {
  it('unlock: the account waiting after wrong passwords is let in at once, and it is recorded', async () => {
    const t = await testApp;
    const user = await createUser(t);
    const subject = loginCounterKeys.account(user.id);
    for (let i = 0; i < 10; i++) await t.app.deps.loginThrottle.admit(subject);
    expect((await t.app.deps.loginThrottle.admit(subject)).isAdmitted).toBe(false);
    expect((await admin('unlock', user.email)).code).toBe(2);

    const unlocked = await admin('unlock', user.email, '--operator', 'anna');
    expect(unlocked.code).toBe(0);
    expect(unlocked.out).toContain('Ожидание входа снято');
    expect(await t.app.deps.loginThrottle.state(subject)).toBeNull();
    expect((await login(t, user.email)).statusCode).toBe(200);
    const [action] = await actionsOf(t, user.id);
    expect(action).toMatchObject({ operator: 'anna', command: 'unlock' });
    expect(action!.details).toMatchObject({ failures: 10 });
  });

  it('end-sessions: every session ends, the customer sees it in the security log', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const second = await signIn(t, user.id);
    const ended = await admin(
      'end-sessions',
      user.id,
      '--operator',
      'boris',
      '--reason',
      'просьба клиента',
    );
    expect(ended.code).toBe(0);
    expect(ended.out).toContain('Завершено сеансов: 2');
    expect(await sessionStatus(t, headers)).toBe(401);
    expect(await sessionStatus(t, second.headers)).toBe(401);
    expect(await eventKinds(t, user.id)).toContain('sessions_ended_by_support');
    expect(await actionsOf(t, user.id)).toMatchObject([
      {
        operator: 'boris',
        command: 'end-sessions',
        reason: 'просьба клиента',
        details: { sessionsEnded: 2 },
      },
    ]);
  });

  it('block: no sign-in, the session gets 401, a clear message; unblock lets it in again', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    expect((await admin('block', user.id, '--operator', 'anna')).code).toBe(2);
    expect(await sessionStatus(t, headers)).toBe(200);

    const blocked = await admin(
      'block',
      user.id,
      '--operator',
      'anna',
      '--reason',
      'мошенничество с оплатой',
    );
    expect(blocked.code).toBe(0);
    expect(await sessionStatus(t, headers)).toBe(401);
    const refused = await login(t, user.userName);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: `${ACCOUNT_BLOCKED}: ${t.config.SUPPORT_URL}`,
      reason: 'account_blocked',
    });
    // Every sign-in creates its session in one place: a direct one is refused the same way.
    await expect(t.app.deps.sessions.create({ userId: user.id })).rejects.toThrow(ACCOUNT_BLOCKED);
    // A wrong password says nothing about the block.
    const wrong = await t.app.inject({
      method: 'POST',
      url: `${AUTH_API}/login`,
      payload: { usernameOrEmail: user.userName, password: 'Wrong-Pass1' },
      remoteAddress: nextIp(),
    });
    expect(wrong.statusCode).toBe(401);
    expect(JSON.stringify(wrong.json())).not.toContain(ACCOUNT_BLOCKED);

    expect((await admin('block', user.id, '--operator', 'anna', '--reason', 'ещё раз')).code).toBe(
      1,
    );
    const shown = await admin('show', user.id);
    expect(shown.out).toContain('мошенничество с оплатой');

    expect((await admin('unblock', user.id, '--operator', 'anna')).code).toBe(0);
    expect((await admin('unblock', user.id, '--operator', 'anna')).code).toBe(1);
    expect((await login(t, user.userName)).statusCode).toBe(200);
    const kinds = await eventKinds(t, user.id);
    expect(kinds).toEqual(expect.arrayContaining(['blocked', 'unblocked']));
    expect((await actionsOf(t, user.id)).map((row) => row.command)).toEqual(['block', 'unblock']);
  });

  it('block while sign-ins run: none of them keeps a live session', async () => {
    const t = await testApp;
    const user = await createUser(t);
    const attempts = Array.from({ length: 20 }, () => login(t, user.userName));
    const blocked = admin('block', user.id, '--operator', 'anna', '--reason', 'гонка');
    const answers = await Promise.all(attempts);
    expect((await blocked).code).toBe(0);
    for (const answer of answers) {
      if (answer.statusCode !== 200) continue;
      const status = await sessionStatus(t, { authorization: `Bearer ${answer.json().token}` });
      expect(status).toBe(401);
    }
    expect(await t.app.deps.sessions.listActive(user.id)).toEqual([]);
  });
});

describe('second factors', () => {
  it('reset-second-factors: the owner who lost the phone and every passkey signs in by password again', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    await turnOnAuthenticator(t, headers);
    await t.database.db.execute(sql`
      INSERT INTO passkeys (user_id, credential_id, public_key, name, created_at)
      VALUES (${user.id}, ${`lost-${user.id}`}, 'key', 'Потерянный телефон', now())`);
    expect((await login(t, user.userName)).json()).toMatchObject({ requiresTwoFactor: true });

    expect((await admin('reset-second-factors', user.userName, '--operator', 'anna')).code).toBe(2);
    const reset = await admin(
      'reset-second-factors',
      user.userName,
      '--operator',
      'anna',
      '--reason',
      'Письмо владельца с его почты',
    );
    expect(reset.code).toBe(0);
    expect(reset.out).toContain('удалено ключей доступа: 1');
    const signedIn = await login(t, user.userName);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().token).toEqual(expect.any(String));
    expect(await eventKinds(t, user.id)).toEqual(
      expect.arrayContaining(['two_factor_disabled', 'passkey_removed']),
    );
    const [recorded] = (await actionsOf(t, user.id)).filter(
      (row) => row.command === 'reset-second-factors',
    );
    expect(recorded).toMatchObject({ operator: 'anna', reason: 'Письмо владельца с его почты' });
    // Nothing left to reset: refused, nothing recorded.
    const again = await admin(
      'reset-second-factors',
      user.id,
      '--operator',
      'anna',
      '--reason',
      'x',
    );
    expect(again.code).toBe(1);
    expect(
      (await actionsOf(t, user.id)).filter((row) => row.command === 'reset-second-factors'),
    ).toHaveLength(1);
  });
});

describe('money', () => {
  it('credit and debit: a correction entry with the reason, balances equal the ledger, never below zero', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const args = ['--operator', 'anna', '--reason', 'Компенсация'];
    expect((await admin('credit', user.id, '100', ...args)).code).toBe(2);
    expect(
      (await admin('credit', user.id, '100', '--currency', 'rub', '--operator', 'anna')).code,
    ).toBe(2);
    expect((await admin('credit', user.id, '-5', '--currency', 'rub', ...args)).code).toBe(2);
    expect((await admin('credit', user.id, '1.5', '--currency', 'points', ...args)).code).toBe(2);

    expect((await admin('credit', user.id, '100,50', '--currency', 'rub', ...args)).code).toBe(0);
    expect((await admin('credit', user.id, '40', '--currency', 'points', ...args)).code).toBe(0);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 10_050, points: 40 });

    const tooMuch = await admin('debit', user.id, '100,51', '--currency', 'rub', ...args);
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.err).toContain('Списание отклонено');
    expect((await admin('debit', user.id, '41', '--currency', 'points', ...args)).code).toBe(1);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 10_050, points: 40 });

    expect((await admin('debit', user.id, '0.50', '--currency', 'rub', ...args)).code).toBe(0);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 10_000, points: 40 });

    // Once per key: a repeated command changes nothing.
    const keyed = [...args, '--idempotency-key', 'ticket-4711'];
    expect((await admin('credit', user.id, '5', '--currency', 'rub', ...keyed)).code).toBe(0);
    const again = await admin('credit', user.id, '5', '--currency', 'rub', ...keyed);
    expect(again.code).toBe(0);
    expect(again.out).toContain('Уже выполнено');
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 10_500 });

    // The customer's history: «Корректировка» with the reason as its description.
    const history = await t.app.inject({ method: 'GET', url: '/payments/payments/user', headers });
    expect(history.statusCode).toBe(200);
    const items = history.json().data as { kind: string; description: string }[];
    expect(items.filter((item) => item.kind === 'correction')).toHaveLength(4);
    expect(items.every((item) => item.description === 'Компенсация')).toBe(true);
    expect((await actionsOf(t, user.id)).map((row) => row.command)).toEqual([
      'credit',
      'credit',
      'debit',
      'credit',
    ]);
  });

  it('100 parallel debits the balance pays only 37 of: 37 applied once each, never below zero', async () => {
    const t = await testApp;
    const user = await createUser(t);
    const args = ['--currency', 'rub', '--operator', 'anna', '--reason', 'Списание'];
    expect((await admin('credit', user.id, '37', ...args)).code).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        adminRepeatedOnTimeout(
          'debit',
          user.id,
          '1',
          ...args,
          '--idempotency-key',
          `parallel-${user.id}-${i}`,
        ),
      ),
    );
    expect(results.filter((result) => result.code === 0)).toHaveLength(37);
    expect(results.filter((result) => result.code === 1)).toHaveLength(63);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    const debits = await t.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, user.id), sql`${ledgerEntries.amount} < 0`));
    expect(Number(debits[0]!.count)).toBe(37);
    expect((await actionsOf(t, user.id)).filter((row) => row.command === 'debit')).toHaveLength(37);

    // The same command 100 times at once (one key): applied once.
    expect((await admin('credit', user.id, '10', ...args)).code).toBe(0);
    const same = await Promise.all(
      Array.from({ length: 100 }, () =>
        adminRepeatedOnTimeout(
          'debit',
          user.id,
          '1',
          ...args,
          '--idempotency-key',
          `same-${user.id}`,
        ),
      ),
    );
    expect(same.every((result) => result.code === 0)).toBe(true);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 900 });
  });
});

describe('payments and letters', () => {
  it('reconcile: a paid top-up whose notification was lost is credited once, and it is recorded', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const started = await requestTopUp(t, { user, headers }, 250);
    expect(started.statusCode).toBe(200);
    const paid = await pressSandboxButton(t.app, started.json().data.paymentUrl, 'pay');
    expect(paid.statusCode).toBe(303);
    expect((await balancesOf(t, user.id)).kopecks).toBe(0);
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));

    expect((await admin('reconcile', payment!.id)).code).toBe(2);
    const [first, second] = await Promise.all([
      admin('reconcile', payment!.id, '--operator', 'anna'),
      admin('reconcile', payment!.id, '--operator', 'boris'),
    ]);
    expect(first!.code).toBe(0);
    expect(second!.code).toBe(0);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 25_000 });
    expect(await actionsOf(t, user.id)).toHaveLength(2);

    t.clock.advance(3 * MINUTE);
    const all = await admin('reconcile', '--all', '--operator', 'anna');
    expect(all.code).toBe(0);
    expect(all.out).toContain('Проверено');
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 25_000 });
    expect(
      (await admin('reconcile', '00000000-0000-4000-8000-000000000000', '--operator', 'a')).code,
    ).toBe(1);
  });

  it('refund: part, then the rest of a paid top-up, each once, to the card; recorded; nothing past it', async () => {
    const t = await testApp;
    const { user, headers } = await createSignedInUser(t);
    const started = await requestTopUp(t, { user, headers }, 250);
    await pressSandboxButton(t.app, started.json().data.paymentUrl, 'pay');
    const [payment] = await t.database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id));
    expect((await admin('reconcile', payment!.id, '--operator', 'anna')).code).toBe(0);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 25_000 });

    // A reason is required, as for every change of money.
    expect((await admin('refund', payment!.id, '100', '--operator', 'anna')).code).toBe(2);
    const part = await admin(
      'refund',
      payment!.id,
      '100',
      '--operator',
      'anna',
      '--reason',
      'Сервер не понадобился',
      '--idempotency-key',
      'ticket-1',
    );
    expect(part.code).toBe(0);
    expect(part.out).toContain('Возвращено 100,00');
    // The same key again refunds nothing more.
    const repeated = await admin(
      'refund',
      payment!.id,
      '100',
      '--operator',
      'anna',
      '--reason',
      'Сервер не понадобился',
      '--idempotency-key',
      'ticket-1',
    );
    expect(repeated.code).toBe(0);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 15_000 });

    const rest = await admin('refund', payment!.id, '--operator', 'boris', '--reason', 'Остаток');
    expect(rest.code).toBe(0);
    expect(rest.out).toContain('всего возвращено по платежу: 250,00');
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    const refunds = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, user.id), eq(ledgerEntries.kind, 'refund')));
    expect(refunds.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-15_000, -10_000]);

    const nothingLeft = await admin('refund', payment!.id, '--operator', 'anna', '--reason', 'x');
    expect(nothingLeft.code).toBe(1);
    expect(await expectBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    const recorded = (await actionsOf(t, user.id)).filter((row) => row.command === 'refund');
    expect(recorded.map((row) => [row.operator, row.reason])).toEqual([
      ['anna', 'Сервер не понадобился'],
      ['anna', 'Сервер не понадобился'],
      ['boris', 'Остаток'],
    ]);
  });

  it('letters: stuck ones are listed, sent again, dropped with a reason; all recorded', async () => {
    const t = await testApp;
    const { db } = t.database;
    const letter = { subject: 'Пароль изменён', text: 'Текст', html: '<p>Текст</p>' };
    await t.app.deps.mail.enqueue({ ...letter, to: 'stuck-one@example.com' });
    await t.app.deps.mail.enqueue({ ...letter, to: 'stuck-two@example.com' });
    await t.app.deps.mail.flush();
    await db
      .update(mailOutbox)
      .set({ status: 'failed', attempts: 40, lastError: '421 try later' })
      .where(sql`${mailOutbox.toAddress} LIKE 'stuck-%'`);
    const ids = Object.fromEntries(
      (await db.select().from(mailOutbox).where(sql`${mailOutbox.toAddress} LIKE 'stuck-%'`)).map(
        (row) => [row.toAddress, row.id],
      ),
    );

    const stuck = await admin('letters', '--stuck');
    expect(stuck.code).toBe(0);
    expect(stuck.out).toContain('stuck-one@example.com');
    expect(stuck.out).toContain('421 try later');

    const one = ids['stuck-one@example.com']!;
    expect((await admin('letters', 'resend', one, '--operator', 'anna')).code).toBe(0);
    const [resent] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, one));
    expect(resent!.status).toBe('pending');

    const two = ids['stuck-two@example.com']!;
    expect((await admin('letters', 'drop', two, '--operator', 'anna')).code).toBe(2);
    expect(
      (await admin('letters', 'drop', two, '--operator', 'anna', '--reason', 'адрес не существует'))
        .code,
    ).toBe(0);
    expect(await db.select().from(mailOutbox).where(eq(mailOutbox.id, two))).toEqual([]);
    expect(
      (await admin('letters', 'drop', two, '--operator', 'anna', '--reason', 'ещё раз')).code,
    ).toBe(1);

    const records = await db
      .select()
      .from(operatorActions)
      .where(sql`${operatorActions.command} LIKE 'letters %'`);
    expect(records.map((row) => row.command).sort()).toEqual(['letters drop', 'letters resend']);
    expect(JSON.stringify(records)).not.toContain('stuck-two@example.com');
  });
});

describe('the record of actions', () => {
  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const t = await testApp;
    const user = await createUser(t);
    expect((await admin('end-sessions', user.id, '--operator', 'anna')).code).toBe(0);
    const { db } = t.database;
    await expect(
      db
        .update(operatorActions)
        .set({ operator: 'someone else' })
        .where(eq(operatorActions.accountId, user.id)),
    ).rejects.toThrow();
    await expect(
      db.delete(operatorActions).where(eq(operatorActions.accountId, user.id)),
    ).rejects.toThrow();
    await expect(db.execute(sql`TRUNCATE operator_actions`)).rejects.toThrow();
    expect(await actionsOf(t, user.id)).toMatchObject([
      { operator: 'anna', command: 'end-sessions' },
    ]);
  });
});

describe('npm run admin, a real process', () => {
  const ROOT = path.resolve(import.meta.dirname, '../../../../..');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-admin-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function run(args: string[]) {
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const { DATABASE_URL: _url, ...env } = process.env;
      const child = spawn('npm', ['run', '--silent', 'admin', '--', ...args], {
        cwd: ROOT,
        env: { ...env, DATA_DIR: dataDir, NODE_ENV: 'test' },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('answers --help, runs a command on the embedded database, refuses while a portal holds it', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Команды:');
    expect((await run(['no-such-command'])).code).toBe(2);

    const found = await run(['find', 'nobody@example.com']);
    expect(found.stderr).toContain('Ничего не найдено');
    expect(found.code).toBe(1);

    // This test process plays the running portal.
    const release = await lockDataDir(dataDir);
    try {
      const refused = await run(['find', 'nobody@example.com']);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `Портал работает на встроенной базе в ${dataDir}: остановите его и повторите команду, ` +
          'или работайте на PostgreSQL (DATABASE_URL).',
      );
    } finally {
      release();
    }
  }, 120_000);
});
