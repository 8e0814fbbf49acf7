import {
  STAFF_OWN_REQUEST,
  STAFF_REASON_REQUIRED,
  STAFF_REQUEST_CLOSED,
} from '@portal/contracts/staff';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  createWalletTestApp,
  expectLedgerBalanced,
  fundUser,
  paidTopUp,
  watchCancels,
} from '../../../test/support/wallet.js';
import { ledgerEntries, paymentRefunds } from '../payments/schema.js';
import type { StaffActor } from './audit.js';
import { runAdmin } from './cli.js';
import { STAFF_MONEY_FORBIDDEN } from './messages.js';
import { moneyRequests, operatorActions } from './schema.js';

const HOUR = 60 * 60 * 1000;

const cancels = watchCancels();
const testApp = createWalletTestApp({ wrap: cancels.wrap });

const REASON = 'Компенсация простоя';
const cli = (name: string, reason: string | null = REASON): StaffActor => ({
  userId: null,
  name,
  role: null,
  reason,
  ip: null,
});
const member = (userId: string, name: string, role: StaffActor['role']): StaffActor => ({
  userId,
  name,
  role,
  reason: REASON,
  ip: '10.0.0.1',
});

let keys = 0;
const key = () => `money-test-${++keys}-${Math.random().toString(36).slice(2)}`;

const money = async () => (await testApp).app.deps.staffMoney;

function credit(accountId: string, amount: number, currency: 'rub' | 'points' = 'rub') {
  return {
    accountId,
    direction: 'credit' as const,
    currency,
    amount,
    idempotencyKey: key(),
  };
}

async function requestRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(moneyRequests).where(eq(moneyRequests.id, id));
  return row!;
}

async function commandsOf(t: TestApp, accountId: string) {
  const rows = await t.database.db
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.accountId, accountId))
    .orderBy(operatorActions.seq);
  return rows.map((row) => row.command);
}

/** The call's outcome, or the message of its refusal. */
async function settle<T>(work: Promise<T>): Promise<T | { refused: string }> {
  try {
    return await work;
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** A hundred calls at once queue for ten PostgreSQL connections: a timeout is repeated. */
async function repeatedOnTimeout<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5 || !/timeout|timed out/i.test(String(error))) throw error;
    }
  }
}

async function admin(...argv: string[]) {
  const t = await testApp;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(
    { deps: t.app.deps, log: t.app.log, out: (l) => out.push(l), err: (l) => err.push(l) },
    argv,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('staff money: the threshold', () => {
  it('at or under 1 000 ₽ (or 1 000 points) is done at once; above, a pending request that moves nothing', async () => {
    const t = await testApp;
    const service = await money();
    const user = await createUser(t);

    expect(await service.correct(cli('anna'), credit(user.id, 100_000))).toMatchObject({
      status: 'done',
      balance: 100_000,
    });
    expect(await service.correct(cli('anna'), credit(user.id, 1000, 'points'))).toMatchObject({
      status: 'done',
      balance: 1000,
    });
    const input = credit(user.id, 100_001);
    const pending = await service.correct(cli('anna'), input);
    expect(pending).toMatchObject({ status: 'pending', amount: 100_001, isRepeat: false });
    if (pending.status !== 'pending') throw new Error('expected a request');
    expect(pending.expiresAt.getTime() - t.clock.now().getTime()).toBe(24 * HOUR);
    const points = await service.correct(cli('anna'), credit(user.id, 1001, 'points'));
    expect(points.status).toBe('pending');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({
      kopecks: 100_000,
      points: 1000,
    });
    expect(await requestRow(t, pending.requestId)).toMatchObject({
      kind: 'credit',
      accountId: user.id,
      currency: 'rub',
      amount: 100_001,
      status: 'pending',
      requestedBy: 'anna',
    });
    // The same key again is the same request, not a second one.
    expect(await service.correct(cli('anna'), input)).toMatchObject({
      status: 'pending',
      requestId: pending.requestId,
      isRepeat: true,
    });
    expect(await commandsOf(t, user.id)).toEqual([
      'credit',
      'credit',
      'correction_requested',
      'correction_requested',
    ]);
  });

  it('a support member moves no money; finance, admin and the command line do', async () => {
    const t = await testApp;
    const service = await money();
    const user = await createUser(t);
    const support = member(user.id, 'sveta', 'support');
    for (const call of [
      service.correct(support, credit(user.id, 100)),
      service.reconcile(support, '00000000-0000-4000-8000-000000000000'),
      service.approve(support, '00000000-0000-4000-8000-000000000000'),
      service.decline(support, '00000000-0000-4000-8000-000000000000'),
    ]) {
      await expect(call).rejects.toMatchObject({ statusCode: 403, message: STAFF_MONEY_FORBIDDEN });
    }
    const finance = member('00000000-0000-4000-8000-00000000000f', 'fedor', 'finance');
    const admin = member('00000000-0000-4000-8000-00000000000a', 'alla', 'admin');
    expect((await service.correct(finance, credit(user.id, 100))).status).toBe('done');
    expect((await service.correct(admin, credit(user.id, 100))).status).toBe('done');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 200 });
  });
});

describe('staff money: the reason', () => {
  it('a correction, a refund and a decline need one: 400, nothing moved, nothing recorded', async () => {
    const t = await testApp;
    const service = await money();
    const { user, payment } = await paidTopUp(t, 500);
    const made = await service.correct(cli('anna'), credit(user.id, 150_000));
    if (made.status !== 'pending') throw new Error('expected a request');
    const before = await commandsOf(t, user.id);
    for (const reason of [null, '  ']) {
      for (const call of [
        service.correct(cli('anna', reason), credit(user.id, 100)),
        service.refund(cli('anna', reason), { paymentId: payment.id, idempotencyKey: key() }),
        service.decline(cli('boris', reason), made.requestId),
      ]) {
        await expect(call).rejects.toMatchObject({
          statusCode: 400,
          message: STAFF_REASON_REQUIRED,
        });
      }
    }
    expect(await commandsOf(t, user.id)).toEqual(before);
    expect((await requestRow(t, made.requestId)).status).toBe('pending');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 50_000 });
  });
});

describe('staff money: approvals', () => {
  it('nobody approves their own request: the same account or the same name', async () => {
    const t = await testApp;
    const service = await money();
    const user = await createUser(t);
    const fedor = member('00000000-0000-4000-8000-0000000000f1', 'fedor', 'finance');
    const made = await service.correct(fedor, credit(user.id, 200_000));
    if (made.status !== 'pending') throw new Error('expected a request');
    for (const self of [fedor, { ...fedor, name: 'другое имя' }, cli('FEDOR')]) {
      await expect(service.approve(self, made.requestId)).rejects.toMatchObject({
        statusCode: 409,
        message: STAFF_OWN_REQUEST,
      });
    }
    expect((await requestRow(t, made.requestId)).status).toBe('pending');
    expect(await service.approve(cli('boris', 'проверил'), made.requestId)).toMatchObject({
      status: 'done',
      balance: 200_000,
    });
    expect(await requestRow(t, made.requestId)).toMatchObject({
      status: 'approved',
      decidedBy: 'boris',
      decisionReason: 'проверил',
    });
  });

  it('100 parallel approvals move the money once: one ledger entry, the balance once', async () => {
    const t = await testApp;
    const service = await money();
    const user = await createUser(t);
    const made = await service.correct(cli('anna'), credit(user.id, 500_000));
    if (made.status !== 'pending') throw new Error('expected a request');
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        settle(repeatedOnTimeout(() => service.approve(cli(`approver-${i}`), made.requestId))),
      ),
    );
    expect(results.filter((result) => 'status' in result && result.status === 'done')).toHaveLength(
      1,
    );
    expect(results.filter((result) => 'refused' in result)).toEqual(
      Array.from({ length: 99 }, () => ({ refused: STAFF_REQUEST_CLOSED })),
    );
    const entries = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(entries).toMatchObject([
      { amount: 500_000, kind: 'correction', idempotencyKey: `money-request:${made.requestId}` },
    ]);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 500_000 });
    expect(
      (await commandsOf(t, user.id)).filter((command) => command === 'money_request_approved'),
    ).toHaveLength(1);
  });

  it('an approval and a decline at once: exactly one wins, and the money follows it', async () => {
    const t = await testApp;
    const service = await money();
    for (let round = 0; round < 5; round++) {
      const user = await createUser(t);
      const made = await service.correct(cli('anna'), credit(user.id, 300_000));
      if (made.status !== 'pending') throw new Error('expected a request');
      const [approved, declined] = await Promise.all([
        settle(service.approve(cli('boris'), made.requestId)),
        settle(service.decline(cli('vera', 'не подтверждено'), made.requestId)),
      ]);
      const winners = [approved, declined].filter((result) => !('refused' in result));
      expect(winners).toHaveLength(1);
      expect([approved, declined]).toContainEqual({ refused: STAFF_REQUEST_CLOSED });
      const row = await requestRow(t, made.requestId);
      const { kopecks } = await expectLedgerBalanced(t, user.id);
      expect(kopecks).toBe(row.status === 'approved' ? 300_000 : 0);
      expect(row.status).toBe('refused' in approved ? 'declined' : 'approved');
    }
  });

  it('after 24 hours a request is expired: neither approved nor declined', async () => {
    const t = await testApp;
    const service = await money();
    const user = await createUser(t);
    const made = await service.correct(cli('anna'), credit(user.id, 150_000));
    if (made.status !== 'pending') throw new Error('expected a request');
    t.clock.advance(24 * HOUR);
    await expect(service.approve(cli('boris'), made.requestId)).rejects.toMatchObject({
      statusCode: 409,
      message: STAFF_REQUEST_CLOSED,
    });
    await expect(service.decline(cli('boris', 'поздно'), made.requestId)).rejects.toMatchObject({
      message: STAFF_REQUEST_CLOSED,
    });
    expect((await service.list()).map((view) => view.row.id)).not.toContain(made.requestId);
    const all = await service.list({ all: true });
    expect(all.find((view) => view.row.id === made.requestId)?.status).toBe('expired');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
  });

  it('a debit the balance no longer pays is refused at approval; the request keeps waiting', async () => {
    const t = await testApp;
    const service = await money();
    const user = await createUser(t);
    await fundUser(t, user.id, { kopecks: 300_000 });
    const made = await service.correct(cli('anna'), {
      ...credit(user.id, 250_000),
      direction: 'debit',
    });
    if (made.status !== 'pending') throw new Error('expected a request');
    await fundUser(t, user.id, { kopecks: -100_000 });
    await expect(service.approve(cli('boris'), made.requestId)).rejects.toMatchObject({
      statusCode: 409,
      message: expect.stringContaining('Списание отклонено'),
    });
    expect((await requestRow(t, made.requestId)).status).toBe('pending');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 200_000 });
    await fundUser(t, user.id, { kopecks: 50_000 });
    expect(await service.approve(cli('boris'), made.requestId)).toMatchObject({ balance: 0 });
    expect((await requestRow(t, made.requestId)).status).toBe('approved');
  });
});

describe('staff money: refunds', () => {
  it('a refund above the threshold waits; approved, the bank’s Cancel is called once', async () => {
    const t = await testApp;
    const service = await money();
    const { user, payment } = await paidTopUp(t, 2000);
    cancels.calls.length = 0;
    // Without an amount: all that is refundable, 2 000 ₽, above 1 000 ₽.
    const made = await service.refund(cli('anna', 'Клиент передумал'), {
      paymentId: payment.id,
      idempotencyKey: key(),
    });
    expect(made).toMatchObject({ status: 'pending', amount: 200_000 });
    if (made.status !== 'pending') throw new Error('expected a request');
    expect(cancels.calls).toHaveLength(0);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 200_000 });

    // The bank refuses the first approval: the debit comes back, the request waits again.
    cancels.isRefusing = true;
    try {
      await expect(service.approve(cli('boris'), made.requestId)).rejects.toMatchObject({
        statusCode: 409,
      });
    } finally {
      cancels.isRefusing = false;
    }
    expect(cancels.calls).toHaveLength(1);
    expect((await requestRow(t, made.requestId)).status).toBe('pending');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 200_000 });

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        settle(service.approve(cli(`approver-${i}`), made.requestId)),
      ),
    );
    expect(results.filter((result) => !('refused' in result))).toHaveLength(1);
    expect(cancels.calls).toHaveLength(2);
    expect(cancels.calls[1]).toMatchObject({
      PaymentId: payment.providerPaymentId,
      Amount: 200_000,
    });
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    const refunds = await t.database.db
      .select()
      .from(paymentRefunds)
      .where(eq(paymentRefunds.paymentId, payment.id));
    expect(refunds.map((row) => row.status).sort()).toEqual(['completed', 'refused']);
    expect((await requestRow(t, made.requestId)).status).toBe('approved');
  });

  it('a refund at or under the threshold is done at once', async () => {
    const t = await testApp;
    const service = await money();
    const { user, payment } = await paidTopUp(t, 1500);
    cancels.calls.length = 0;
    const done = await service.refund(cli('anna', 'Часть'), {
      paymentId: payment.id,
      amountKopecks: 100_000,
      idempotencyKey: key(),
    });
    expect(done).toMatchObject({ status: 'done', refund: { amountKopecks: 100_000 } });
    expect(cancels.calls).toHaveLength(1);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 50_000 });
  });
});

describe('staff money: the command line and the service', () => {
  it('give the same state for the same action, requests and approvals alike', async () => {
    const t = await testApp;
    const service = await money();
    const byCli = await createUser(t);
    const byService = await createUser(t);
    const reason = 'Компенсация за сбой';

    const small = await admin(
      ...['credit', byCli.id, '500', '--currency', 'rub', '--operator', 'anna'],
      ...['--reason', reason],
    );
    expect(small.code).toBe(0);
    await service.correct(cli('anna', reason), credit(byService.id, 50_000));

    const large = await admin(
      ...['credit', byCli.id, '1500', '--currency', 'rub', '--operator', 'anna'],
      ...['--reason', reason],
    );
    expect(large.code).toBe(0);
    expect(large.out).toContain('создан запрос');
    const cliRequestId = /Запрос: ([0-9a-f-]{36})/.exec(large.out)?.[1];
    expect(cliRequestId).toBeDefined();
    const made = await service.correct(cli('anna', reason), credit(byService.id, 150_000));
    if (made.status !== 'pending') throw new Error('expected a request');

    const listed = await admin('money-requests');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(cliRequestId!);
    expect(listed.out).toContain(made.requestId);

    const own = await admin('money-requests', 'approve', cliRequestId!, '--operator', 'anna');
    expect(own.code).toBe(1);
    expect(own.err).toContain(STAFF_OWN_REQUEST);
    expect((await admin('money-requests', 'decline', cliRequestId!, '--operator', 'b')).code).toBe(
      2,
    );
    expect(
      (await admin('money-requests', 'approve', cliRequestId!, '--operator', 'boris')).code,
    ).toBe(0);
    await service.approve(cli('boris', null), made.requestId);
    expect(
      (await admin('money-requests', 'approve', cliRequestId!, '--operator', 'vera')).err,
    ).toContain(STAFF_REQUEST_CLOSED);

    const stateOf = async (userId: string) => {
      const balances = await expectLedgerBalanced(t, userId);
      const entries = await t.database.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'correction')))
        .orderBy(ledgerEntries.amount);
      const [request] = await t.database.db
        .select()
        .from(moneyRequests)
        .where(eq(moneyRequests.accountId, userId));
      return {
        balances: { kopecks: balances.kopecks, points: balances.points },
        entries: entries.map((entry) => [entry.kind, entry.amount, entry.description]),
        request: {
          kind: request!.kind,
          amount: request!.amount,
          status: request!.status,
          requestedBy: request!.requestedBy,
          decidedBy: request!.decidedBy,
          reason: request!.reason,
        },
        commands: await commandsOf(t, userId),
      };
    };
    const viaCli = await stateOf(byCli.id);
    expect(viaCli).toMatchObject({
      balances: { kopecks: 200_000 },
      commands: ['credit', 'correction_requested', 'money_request_approved'],
    });
    expect(await stateOf(byService.id)).toEqual(viaCli);
  });
});
