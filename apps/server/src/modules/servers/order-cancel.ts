import { kopecksToRoubles, roublesToKopecks } from '@portal/contracts/common';
import { USER_NOT_FOUND } from '@portal/contracts/messages';
import { and, eq, sql } from 'drizzle-orm';
import { AppError, notFound } from '../../http/app-error.js';
import type { Sibling } from '../auth/index.js';
import { lockBalances, postLedgerEntry } from '../payments/index.js';
import {
  cashbackCancelDescription,
  ORDER_NOT_FOUND,
  ORDER_OF_ANOTHER_USER,
  orderCancelDescription,
} from './messages.js';
import type { OrderDeps } from './orders.js';
import { serviceOrders, services } from './schema.js';
import { toOwnerService } from './service-view.js';
import type { SiblingOrderAnswer, SiblingOrderCancelAnswer } from './sibling-schemas.js';

export class OrderCancels {
  constructor(private readonly deps: OrderDeps) {}

  /**
   * A sibling site cancels one of its orders: in one transaction under the user's row lock, the
   * price goes back as it was paid (the rouble part to roubles, the points to points), the
   * cashback the order earned is taken back, never below zero (what has been spent is forgiven),
   * and the service loses the months the order paid for (a cancelled purchase is also suspended
   * and stops renewing). Each entry's key is the order's, so nothing happens twice; a repeat
   * answers the first cancel's answer. Unknown order: 404; another user's: 403.
   * docs/decisions/0033-refunds-and-order-cancel.md.
   */
  async cancel(
    sibling: Sibling,
    orderId: string,
    userId: string,
  ): Promise<SiblingOrderCancelAnswer> {
    const { deps } = this;
    return deps.db.transaction(async (tx) => {
      const orderKey = and(
        eq(serviceOrders.sibling, sibling.name),
        eq(serviceOrders.orderId, orderId),
      );
      const [order] = await tx.select().from(serviceOrders).where(orderKey);
      if (!order) throw notFound(ORDER_NOT_FOUND);
      if (order.userId !== userId) throw new AppError('forbidden', ORDER_OF_ANOTHER_USER);
      // The user's lock first (as every balance change), then the order row is read again under it.
      const balances = await lockBalances(tx, userId);
      if (!balances) throw notFound(USER_NOT_FOUND);
      const [locked] = await tx.select().from(serviceOrders).where(orderKey).for('update');
      if (!locked) throw notFound(ORDER_NOT_FOUND);
      if (locked.cancelAnswer) return locked.cancelAnswer as SiblingOrderCancelAnswer;

      const paid = locked.answer as SiblingOrderAnswer;
      const kopecks = roublesToKopecks(paid.charged.roubles);
      const points = paid.charged.points;
      // Taken back from what is there after the points return; the rest has been spent.
      const cashbackTakenBack = Math.min(paid.cashbackPoints, balances.points + points);
      const now = deps.clock.now();
      const name = paid.service.message;
      const base = {
        userId,
        reference: locked.serviceId,
        createdAt: now,
      };
      const eventKey = `order:${sibling.name}:${orderId}:cancel`;
      if (kopecks > 0) {
        await postLedgerEntry(tx, {
          ...base,
          currency: 'rub',
          amount: kopecks,
          kind: 'refund',
          description: orderCancelDescription(name),
          idempotencyKey: `${eventKey}:rub`,
        });
      }
      if (points > 0) {
        await postLedgerEntry(tx, {
          ...base,
          currency: 'points',
          amount: points,
          kind: 'refund',
          description: orderCancelDescription(name),
          idempotencyKey: `${eventKey}:points`,
        });
      }
      if (cashbackTakenBack > 0) {
        await postLedgerEntry(tx, {
          ...base,
          currency: 'points',
          amount: -cashbackTakenBack,
          kind: 'cashback',
          description: cashbackCancelDescription(name),
          idempotencyKey: `${eventKey}:cashback`,
        });
      }

      const months = locked.months ?? monthsOf(paid);
      const period = sql`make_interval(months => ${months}::int)`;
      const [service] = await tx
        .update(services)
        .set({
          paidUntil: sql`${services.paidUntil} - ${period}`,
          ...(paid.kind === 'purchase' ? { status: 'suspended' as const, autoRenew: false } : {}),
          updatedAt: now,
        })
        .where(eq(services.id, locked.serviceId))
        .returning();

      const answer: SiblingOrderCancelAnswer = {
        orderId,
        status: 'cancelled',
        returned: { roubles: kopecksToRoubles(kopecks), points },
        cashbackTakenBack,
        service: toOwnerService(service!),
        balance: kopecksToRoubles(balances.kopecks + kopecks),
        balanceStars: balances.points + points - cashbackTakenBack,
      };
      await tx
        .update(serviceOrders)
        .set({ cancelledAt: now, cancelAnswer: answer })
        .where(orderKey);
      return answer;
    });
  }
}

/** Orders placed before migration 0761 kept no months: the price over the monthly price. */
function monthsOf(paid: SiblingOrderAnswer): number {
  const perMonth = paid.service.amount;
  if (!perMonth) return 0;
  return Math.max(0, Math.round(paid.charged.total / perMonth));
}
