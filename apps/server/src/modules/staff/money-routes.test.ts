// Money on the staff pages, over HTTP: a correction done at once or requested above
// STAFF_APPROVAL_ROUBLES, approved by another member once whatever the number of clicks, declined,
// expired; refunds and reconciling; one audit row per action with who, role and address; and the
// same state as the command line's. The payments answer in-process (createWalletTestApp).

import { randomUUID } from 'node:crypto';
import { AMOUNT_NOT_POSITIVE, PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import {
  type MoneyRequest,
  STAFF_OWN_REQUEST,
  STAFF_REASON_REQUIRED,
  STAFF_REQUEST_CLOSED,
} from '@portal/contracts/staff';
import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import {
  adminCommand,
  createStaffMember,
  STAFF_API,
  type StaffMemberFixture,
} from '../../../test/support/staff.js';
import type { TestApp } from '../../../test/support/test-app.js';
import {
  createWalletTestApp,
  expectLedgerBalanced,
  paidTopUp,
} from '../../../test/support/wallet.js';
import { moneyRequests, operatorActions } from '../operator/schema.js';
import { ledgerEntries } from '../payments/schema.js';

const HOUR = 60 * 60 * 1000;
const reason = 'обращение 12';

let t: TestApp;
/** Two finance members: anna asks, boris approves. */
let anna: StaffMemberFixture;
let boris: StaffMemberFixture;

beforeAll(async () => {
  t = await createWalletTestApp();
  anna = await createStaffMember(t, 'finance');
  boris = await createStaffMember(t, 'finance');
});

function post(member: StaffMemberFixture, url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: member.headers, payload });
}

/** A credit of `amount` roubles by `member`; `extra` overrides the body. */
function correction(
  member: StaffMemberFixture,
  accountId: string,
  amount: number,
  extra: Record<string, unknown> = {},
) {
  return post(member, `${STAFF_API}/accounts/${accountId}/correction`, {
    direction: 'credit',
    currency: 'rub',
    amount,
    reason,
    idempotencyKey: randomUUID(),
    ...extra,
  });
}

const decide = (member: StaffMemberFixture, id: string, decision: 'approve' | 'decline') =>
  post(member, `${STAFF_API}/money-requests/${id}/${decision}`, { reason: 'проверено' });

async function requestsAs(member: StaffMemberFixture, status: 'pending' | 'all') {
  const answer = await t.app.inject({
    method: 'GET',
    url: `${STAFF_API}/money-requests?status=${status}`,
    headers: member.headers,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().items as MoneyRequest[];
}

/** A request of anna's for a fresh account: its id and the account. */
async function pendingCredit(amount = 1500) {
  const user = await createUser(t);
  const made = await correction(anna, user.id, amount);
  expect(made.statusCode, made.body).toBe(200);
  expect(made.json()).toMatchObject({ status: 'pending', requestId: expect.any(String) });
  return { user, requestId: made.json().requestId as string };
}

async function correctionsOf(userId: string) {
  return t.database.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.kind, 'correction')));
}

async function recordsOf(accountId: string) {
  return t.database.db
    .select()
    .from(operatorActions)
    .where(eq(operatorActions.accountId, accountId))
    .orderBy(asc(operatorActions.seq));
}

describe('a correction', () => {
  it('at or under the threshold is done at once; the same key again changes nothing', async () => {
    const user = await createUser(t);
    const idempotencyKey = randomUUID();
    const done = await correction(anna, user.id, 1000, { idempotencyKey });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ status: 'done', message: expect.stringContaining('Начислено') });
    const again = await correction(anna, user.id, 1000, { idempotencyKey });
    expect(again.json()).toMatchObject({ status: 'done', message: expect.stringContaining('Уже') });
    const points = await correction(anna, user.id, 7, { currency: 'points' });
    expect(points.json().status).toBe('done');
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 100_000, points: 7 });
    expect(await correctionsOf(user.id)).toHaveLength(2);
  });

  it('refuses bad input in Russian and moves nothing', async () => {
    const user = await createUser(t);
    for (const body of [{ reason: '' }, { reason: undefined }]) {
      const answer = await correction(anna, user.id, 10, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().errors.reason).toEqual([STAFF_REASON_REQUIRED]);
    }
    const zero = await correction(anna, user.id, 0);
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors.amount).toEqual([AMOUNT_NOT_POSITIVE]);
    const halfPoint = await correction(anna, user.id, 1.5, { currency: 'points' });
    expect(halfPoint.statusCode).toBe(400);
    const debit = await correction(anna, user.id, 10, { direction: 'debit' });
    expect(debit.statusCode).toBe(409);
    expect(debit.json().message).toContain('Списание отклонено');
    expect((await correction(anna, randomUUID(), 10)).statusCode).toBe(404);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0, points: 0 });
    expect(await recordsOf(user.id)).toEqual([]);
  });
});

describe('money moved by two people', () => {
  it('above the threshold: pending; not by the requester; another member approves it once', async () => {
    const { user, requestId } = await pendingCredit(1500);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
    expect((await requestsAs(boris, 'pending')).find((item) => item.id === requestId)).toEqual({
      id: requestId,
      kind: 'credit',
      accountId: user.id,
      accountEmail: user.email,
      paymentId: null,
      currency: 'rub',
      amount: 1500,
      reason,
      requestedBy: anna.user.userName,
      requestedByUserId: anna.user.id,
      requestedAt: expect.any(String),
      expiresAt: expect.any(String),
      status: 'pending',
      decidedBy: null,
      decidedAt: null,
    });

    const own = await decide(anna, requestId, 'approve');
    expect(own.statusCode).toBe(409);
    expect(own.json().message).toBe(STAFF_OWN_REQUEST);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });

    const approved = await decide(boris, requestId, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({ message: expect.stringContaining('Начислено') });
    const again = await decide(boris, requestId, 'approve');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(STAFF_REQUEST_CLOSED);
    expect(await correctionsOf(user.id)).toMatchObject([{ amount: 150_000, description: reason }]);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 150_000 });

    expect((await requestsAs(boris, 'pending')).map((item) => item.id)).not.toContain(requestId);
    expect((await requestsAs(anna, 'all')).find((item) => item.id === requestId)).toMatchObject({
      status: 'approved',
      decidedBy: boris.user.userName,
      decidedAt: expect.any(String),
    });
  });

  it('100 parallel approvals by another member move the money once: one ledger entry', async () => {
    const { user, requestId } = await pendingCredit(5000);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => decide(boris, requestId, 'approve')),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused.map((answer) => [answer.statusCode, answer.json().message])).toEqual(
      Array.from({ length: 99 }, () => [409, STAFF_REQUEST_CLOSED]),
    );
    expect(await correctionsOf(user.id)).toHaveLength(1);
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 500_000 });
    const approvals = (await recordsOf(user.id)).filter(
      (row) => row.command === 'money_request_approved',
    );
    expect(approvals).toHaveLength(1);
  });

  it('a decline moves nothing; the requester may withdraw their own', async () => {
    for (const decider of [boris, anna]) {
      const { user, requestId } = await pendingCredit();
      const declined = await decide(decider, requestId, 'decline');
      expect(declined.statusCode, declined.body).toBe(200);
      expect(declined.json().message).toContain('Запрос отклонён');
      expect((await decide(boris, requestId, 'approve')).json().message).toBe(STAFF_REQUEST_CLOSED);
      expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
      const [row] = await t.database.db
        .select()
        .from(moneyRequests)
        .where(eq(moneyRequests.id, requestId));
      expect(row).toMatchObject({ status: 'declined', decidedBy: decider.user.userName });
    }
  });

  it('an unknown request is 404', async () => {
    for (const id of [randomUUID(), 'not-an-id']) {
      expect((await decide(boris, id, 'approve')).statusCode).toBe(404);
    }
  });
});

describe('refunds and reconciling', () => {
  it('a refund under the threshold is done; above it waits for another member', async () => {
    const small = await paidTopUp(t, 500);
    const done = await post(anna, `${STAFF_API}/payments/${small.payment.id}/refund`, {
      amount: 200,
      reason,
      idempotencyKey: randomUUID(),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ status: 'done', message: expect.stringContaining('Возвращено') });
    expect(await expectLedgerBalanced(t, small.user.id)).toMatchObject({ kopecks: 30_000 });

    const large = await paidTopUp(t, 2000);
    const made = await post(anna, `${STAFF_API}/payments/${large.payment.id}/refund`, {
      reason,
      idempotencyKey: randomUUID(),
    });
    expect(made.json()).toMatchObject({ status: 'pending' });
    const listed = (await requestsAs(boris, 'pending')).find(
      (item) => item.id === made.json().requestId,
    );
    expect(listed).toMatchObject({ kind: 'refund', paymentId: large.payment.id, amount: 2000 });
    expect(await expectLedgerBalanced(t, large.user.id)).toMatchObject({ kopecks: 200_000 });
    const approved = await decide(boris, made.json().requestId, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await expectLedgerBalanced(t, large.user.id)).toMatchObject({ kopecks: 0 });
  });

  it('reconciling asks the bank and answers the payment’s status; an unknown payment is 404', async () => {
    const { payment } = await paidTopUp(t, 300);
    const answer = await post(anna, `${STAFF_API}/payments/${payment.id}/reconcile`, { reason });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      message: expect.stringContaining(`Платёж ${payment.id}`),
      status: payment.status,
    });
    const unknown = await post(anna, `${STAFF_API}/payments/${randomUUID()}/reconcile`, {
      reason,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(PAYMENT_NOT_FOUND);
  });
});

describe('the audit', () => {
  it('every money action writes its row: who, role, reason and address', async () => {
    const user = await createUser(t);
    const { payment } = await paidTopUp(t, 400);
    const steps: [() => Promise<unknown>, StaffMemberFixture, string][] = [
      [() => correction(anna, user.id, 10), anna, 'credit'],
      [() => correction(anna, user.id, 1200), anna, 'correction_requested'],
      [
        async () => {
          const { requestId } = await pendingCredit();
          return decide(boris, requestId, 'approve');
        },
        boris,
        'money_request_approved',
      ],
      [
        async () => {
          const { requestId } = await pendingCredit();
          return decide(boris, requestId, 'decline');
        },
        boris,
        'money_request_declined',
      ],
      [
        () =>
          post(anna, `${STAFF_API}/payments/${payment.id}/refund`, {
            amount: 100,
            reason,
            idempotencyKey: randomUUID(),
          }),
        anna,
        'refund',
      ],
      [
        () => post(anna, `${STAFF_API}/payments/${payment.id}/reconcile`, { reason }),
        anna,
        'reconcile',
      ],
    ];
    for (const [step, member, command] of steps) {
      const before = await t.database.db.select().from(operatorActions);
      await step();
      const after = await t.database.db.select().from(operatorActions);
      const added = after.filter((row) => !before.some((old) => old.id === row.id));
      // An approval's and a decline's test made the request first (one row of anna's).
      const own = added.filter((row) => row.actorUserId === member.user.id);
      expect(own, command).toHaveLength(1);
      expect(own[0], command).toMatchObject({
        command,
        operator: member.user.userName,
        actorUserId: member.user.id,
        role: 'finance',
        ip: '127.0.0.1',
      });
      expect(own[0]!.reason, command).toBe(
        command.startsWith('money_request_') ? 'проверено' : reason,
      );
    }
  });
});

describe('the command line and the page', () => {
  it('give the same state for a correction, done at once and approved by another', async () => {
    const [a, b] = [await createUser(t), await createUser(t)];
    await adminCommand(
      t,
      'credit',
      a.id,
      '500',
      '--currency',
      'rub',
      '--operator',
      'anna',
      '--reason',
      reason,
    );
    expect((await correction(anna, b.id, 500)).json().status).toBe('done');

    await adminCommand(
      t,
      'credit',
      a.id,
      '1500',
      '--currency',
      'rub',
      '--operator',
      'anna',
      '--reason',
      reason,
    );
    expect((await correction(anna, b.id, 1500)).json().status).toBe('pending');
    const [viaCli] = await t.database.db
      .select()
      .from(moneyRequests)
      .where(eq(moneyRequests.accountId, a.id));
    await adminCommand(
      t,
      'money-requests',
      'approve',
      viaCli!.id,
      '--operator',
      'boris',
      '--reason',
      'проверено',
    );
    const [viaPage] = await requestsAs(boris, 'pending').then((items) =>
      items.filter((item) => item.accountId === b.id),
    );
    expect((await decide(boris, viaPage!.id, 'approve')).statusCode).toBe(200);

    const stateOf = async (userId: string) => {
      const [request] = await t.database.db
        .select()
        .from(moneyRequests)
        .where(eq(moneyRequests.accountId, userId));
      return {
        balances: await expectLedgerBalanced(t, userId),
        entries: (await correctionsOf(userId))
          .map((entry) => [entry.amount, entry.description])
          .sort(),
        request: {
          kind: request!.kind,
          amount: request!.amount,
          status: request!.status,
          reason: request!.reason,
          decisionReason: request!.decisionReason,
        },
        records: (await recordsOf(userId)).map((row) => [row.command, row.reason]),
      };
    };
    const cliState = await stateOf(a.id);
    expect(cliState).toMatchObject({
      balances: { kopecks: 200_000 },
      records: [
        ['credit', reason],
        ['correction_requested', reason],
        ['money_request_approved', 'проверено'],
      ],
    });
    expect(await stateOf(b.id)).toEqual(cliState);
    // Who differs: the command line's name only, the page's account, role and address.
    const [cliRecord, pageRecord] = [
      (await recordsOf(a.id)).at(-1),
      (await recordsOf(b.id)).at(-1),
    ];
    expect(cliRecord).toMatchObject({ operator: 'boris', actorUserId: null, role: null, ip: null });
    expect(pageRecord).toMatchObject({ actorUserId: boris.user.id, role: 'finance' });
  });
});

describe('expiry', () => {
  it(`a request not decided within 24 hours is closed`, async () => {
    const { user, requestId } = await pendingCredit();
    t.clock.advance(24 * HOUR);
    // The members' proofs lapsed with the hours: a fresh member decides.
    const vera = await createStaffMember(t, 'admin');
    for (const decision of ['approve', 'decline'] as const) {
      const answer = await decide(vera, requestId, decision);
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe(STAFF_REQUEST_CLOSED);
    }
    expect((await requestsAs(vera, 'all')).find((item) => item.id === requestId)?.status).toBe(
      'expired',
    );
    expect(await expectLedgerBalanced(t, user.id)).toMatchObject({ kopecks: 0 });
  });
});
