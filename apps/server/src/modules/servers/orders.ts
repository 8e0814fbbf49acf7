import { createHash, randomUUID } from 'node:crypto';
import { kopecksToRoubles, roublesToKopecks } from '@portal/contracts/common';
import { USER_NOT_FOUND } from '@portal/contracts/messages';
import { and, eq, sql } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { AppDeps } from '../../deps.js';
import { AppError, notFound } from '../../http/app-error.js';
import type { Sibling } from '../auth/index.js';
import { lockBalances } from '../payments/index.js';
import { chargeUser } from './charge.js';
import {
  cashbackDescription,
  ORDER_ID_REUSED,
  purchaseDescription,
  renewalDescription,
  SERVICE_OF_ANOTHER_USER,
} from './messages.js';
import { serviceOrders, services } from './schema.js';
import { toOwnerService } from './service-view.js';
import type { SiblingOrderAnswer, SiblingOrderRequest } from './sibling-schemas.js';
import { siblingKnowsUser } from './sibling-users.js';

export type OrderOutcome =
  | { isPaid: true; answer: SiblingOrderAnswer }
  | { isPaid: false; reason: 'insufficient_funds' };

/** Keys sorted, so the same request hashes the same whatever the field order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What the wallet's orders and their cancels need: the database and the clock. */
export type OrderDeps = Pick<AppDeps, 'db' | 'clock'>;

export class Orders {
  constructor(private readonly deps: OrderDeps) {}

  /**
   * A sibling site sells the user a service, or renews it (same `externalId`), and the wallet
   * pays: in one transaction, under the user's row lock, points first when asked, then roubles,
   * then 5% cashback. The order id makes it idempotent: a repeat answers the stored answer and
   * charges nothing. When funds are short nothing is written, so the same order may be retried.
   */
  async place(sibling: Sibling, request: SiblingOrderRequest): Promise<OrderOutcome> {
    const requestHash = createHash('sha256').update(canonicalJson(request)).digest('hex');
    // A unique violation means a concurrent transaction created the same order or service
    // first; running again sees its row and answers accordingly.
    for (let attempt = 0; ; attempt++) {
      try {
        return await placeOrderOnce(this.deps, sibling, request, requestHash);
      } catch (error) {
        if (attempt < 2 && isUniqueViolation(error)) continue;
        throw error;
      }
    }
  }
}

async function placeOrderOnce(
  deps: OrderDeps,
  sibling: Sibling,
  request: SiblingOrderRequest,
  requestHash: string,
): Promise<OrderOutcome> {
  return deps.db.transaction(async (tx) => {
    // The user's lock first: orders of one user run one after another from here on.
    if (!(await lockBalances(tx, request.userId))) throw notFound(USER_NOT_FOUND);
    // A sibling sells only to users who came to it from the portal (or already hold its services).
    if (!(await siblingKnowsUser(tx, sibling, request.userId))) {
      throw notFound(USER_NOT_FOUND);
    }
    const [previous] = await tx
      .select()
      .from(serviceOrders)
      .where(
        and(eq(serviceOrders.sibling, sibling.name), eq(serviceOrders.orderId, request.orderId)),
      );
    if (previous) {
      if (previous.requestHash !== requestHash) throw new AppError('conflict', ORDER_ID_REUSED);
      return { isPaid: true, answer: previous.answer as SiblingOrderAnswer };
    }

    const [existing] = await tx
      .select()
      .from(services)
      .where(
        and(
          eq(services.sibling, sibling.name),
          eq(services.externalId, request.service.externalId),
        ),
      )
      .for('update');
    if (existing && existing.userId !== request.userId) {
      throw new AppError('conflict', SERVICE_OF_ANOTHER_USER);
    }

    const now = deps.clock.now();
    const { service: item, months } = request;
    const priceKopecks = roublesToKopecks(item.pricePerMonth);
    const serviceId = existing?.id ?? randomUUID();
    const kind = existing ? 'renewal' : 'purchase';
    const charge = await chargeUser(tx, {
      userId: request.userId,
      totalKopecks: priceKopecks * months,
      usePoints: request.usePoints,
      kind,
      description: existing ? renewalDescription(item.name) : purchaseDescription(item.name),
      cashbackDescription: cashbackDescription(item.name),
      reference: serviceId,
      eventKey: `order:${sibling.name}:${request.orderId}`,
      now,
    });
    if (!charge.isPaid) return { isPaid: false, reason: 'insufficient_funds' } as const;

    const period = sql`make_interval(months => ${months}::int)`;
    const details = {
      name: item.name,
      serverCount: item.serverCount,
      priceKopecks,
      autoRenew: item.autoRenew,
      usePoints: request.usePoints,
      ...(item.manageUrl !== undefined ? { manageUrl: item.manageUrl } : {}),
      status: 'active' as const,
      updatedAt: now,
    };
    const [row] = existing
      ? await tx
          .update(services)
          .set({
            ...details,
            // An active service extends from its end; a lapsed one from now.
            paidUntil: sql`GREATEST(${services.paidUntil}, ${now.toISOString()}::timestamptz) + ${period}`,
          })
          .where(eq(services.id, existing.id))
          .returning()
      : await tx
          .insert(services)
          .values({
            id: serviceId,
            userId: request.userId,
            sibling: sibling.name,
            externalId: item.externalId,
            ...details,
            paidUntil: sql`${now.toISOString()}::timestamptz + ${period}`,
            createdAt: now,
          })
          .returning();

    const answer: SiblingOrderAnswer = {
      orderId: request.orderId,
      kind,
      service: toOwnerService(row!),
      charged: {
        total: kopecksToRoubles(charge.split.totalKopecks),
        roubles: kopecksToRoubles(charge.split.kopecks),
        points: charge.split.points,
      },
      cashbackPoints: charge.split.cashbackPoints,
      balance: kopecksToRoubles(charge.balanceKopecks),
      balanceStars: charge.balancePoints,
    };
    await tx.insert(serviceOrders).values({
      sibling: sibling.name,
      orderId: request.orderId,
      userId: request.userId,
      serviceId,
      requestHash,
      answer,
      months,
      createdAt: now,
    });
    return { isPaid: true, answer };
  });
}
