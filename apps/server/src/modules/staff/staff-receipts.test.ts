// A payment's receipts on the support desk: a proven support member reads the top-up's and the
// refund's receipts, exactly as the customer's receipt page reads each; the opening is recorded
// in the audit on the payer's account; anyone not staff gets the unknown address's 404. The
// payments answer in-process (createWalletTestApp): the sandbox fiscalises each payment.

import { PAYMENT_NOT_FOUND } from '@portal/contracts/messages';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createStaffMember,
  STAFF_API,
  type StaffMemberFixture,
} from '../../../test/support/staff.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { createWalletTestApp, paidTopUp } from '../../../test/support/wallet.js';
import { operatorActions } from '../operator/schema.js';
import { receipts } from '../payments/schema.js';

let t: TestApp;
let support: StaffMemberFixture;

beforeAll(async () => {
  t = await createWalletTestApp();
  support = await createStaffMember(t, 'support');
});

const receiptsOf = (paymentId: string, headers?: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: `${STAFF_API}/payments/${paymentId}/receipts`,
    ...(headers ? { headers } : {}),
  });

describe('GET …/payments/:id/receipts', () => {
  it("answers the top-up's and the refund's receipts, each as the customer reads it, and records the opening", async () => {
    const { user, headers, payment } = await paidTopUp(t, 1000);
    await t.app.deps.payments.refunds.refund({
      paymentId: payment.id,
      amountKopecks: 25_050,
      reason: 'тест',
      operator: 'test',
    });

    const answer = await receiptsOf(payment.id, support.headers);
    expect(answer.statusCode).toBe(200);
    const items = answer.json().items as { id: string; type: string; amount: number }[];
    expect(items.map(({ type, amount }) => ({ type, amount }))).toEqual([
      { type: 'income', amount: 1000 },
      { type: 'refund', amount: 250.5 },
    ]);
    // One way to build a receipt's view: the customer's own call answers the same.
    for (const item of items) {
      const own = await t.app.inject({
        method: 'GET',
        url: `/payments/receipts/${item.id}`,
        headers,
      });
      expect(own.json()).toEqual(item);
    }

    const recorded = await t.database.db
      .select()
      .from(operatorActions)
      .where(
        and(eq(operatorActions.command, 'receipts_opened'), eq(operatorActions.accountId, user.id)),
      );
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      operator: support.user.userName,
      actorUserId: support.user.id,
      role: 'support',
      details: { paymentId: payment.id },
      reason: null,
    });
  });

  it('answers an empty list for a payment without receipts yet, 404 for no such payment', async () => {
    const { payment } = await paidTopUp(t, 10);
    await t.database.db.delete(receipts).where(eq(receipts.paymentId, payment.id));
    const empty = await receiptsOf(payment.id, support.headers);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ items: [] });

    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await receiptsOf(id, support.headers);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(PAYMENT_NOT_FOUND);
    }
  });

  it("gives a customer (even the payer) and no token the unknown address's 404, and records nothing", async () => {
    const { user, headers, payment } = await paidTopUp(t, 10);
    const unknown = await t.app.inject({ method: 'GET', url: `${STAFF_API}/none-such` });
    for (const caller of [headers, undefined]) {
      const answer = await receiptsOf(payment.id, caller);
      expect(answer.statusCode).toBe(404);
      expect(answer.body).toBe(unknown.body);
    }
    const recorded = await t.database.db
      .select()
      .from(operatorActions)
      .where(eq(operatorActions.accountId, user.id));
    expect(recorded).toEqual([]);
  });
});
