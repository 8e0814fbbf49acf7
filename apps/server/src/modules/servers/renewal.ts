import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/database.js';
import type { AppDeps } from '../../deps.js';
import { lockBalances } from '../payments/index.js';
import { chargeUser } from './charge.js';
import { cashbackDescription, renewalDescription } from './messages.js';
import { services } from './schema.js';

export interface RenewalSummary {
  renewed: number;
  suspended: number;
  skipped: number;
}

export type RenewalDeps = Pick<AppDeps, 'db' | 'clock'>;

export class Renewals {
  constructor(private readonly deps: RenewalDeps) {}

  /**
   * Auto-renewal: every active service whose paid period has ended is renewed for a month and
   * charged (the way its last order paid: points first or roubles only), or suspended when the
   * money is short or auto-renewal is off. One charge per service per period: the period's end is
   * in the ledger keys, and each service is handled under the user's and its own row lock.
   */
  async renewDue(
    log: FastifyBaseLogger,
    options: { limit?: number } = {},
  ): Promise<RenewalSummary> {
    const { deps } = this;
    const now = deps.clock.now();
    const due = await deps.db
      .select({ id: services.id, userId: services.userId })
      .from(services)
      .where(and(eq(services.status, 'active'), lte(services.paidUntil, now)))
      .orderBy(asc(services.paidUntil))
      .limit(options.limit ?? 500);

    const summary: RenewalSummary = { renewed: 0, suspended: 0, skipped: 0 };
    for (const candidate of due) {
      try {
        const outcome = await deps.db.transaction((tx) => renewOne(tx, candidate, now));
        summary[outcome]++;
        if (outcome === 'suspended') log.info({ serviceId: candidate.id }, 'service suspended');
      } catch (error) {
        summary.skipped++;
        log.error({ err: error, serviceId: candidate.id }, 'service renewal failed');
      }
    }
    return summary;
  }
}

async function renewOne(
  tx: Tx,
  candidate: { id: string; userId: string },
  now: Date,
): Promise<keyof RenewalSummary> {
  await lockBalances(tx, candidate.userId);
  const [service] = await tx
    .select()
    .from(services)
    .where(eq(services.id, candidate.id))
    .for('update');
  // Another process got here first, or a sibling renewed it meanwhile.
  if (!service) return 'skipped';
  if (service.status !== 'active' || service.paidUntil > now) return 'skipped';

  const suspend = async () => {
    await tx
      .update(services)
      .set({ status: 'suspended', updatedAt: now })
      .where(eq(services.id, service.id));
    return 'suspended' as const;
  };
  if (!service.autoRenew) return suspend();

  const charge = await chargeUser(tx, {
    userId: service.userId,
    totalKopecks: service.priceKopecks,
    usePoints: service.usePoints,
    kind: 'renewal',
    description: renewalDescription(service.name),
    cashbackDescription: cashbackDescription(service.name),
    reference: service.id,
    eventKey: `renewal:${service.id}:${service.paidUntil.toISOString()}`,
    now,
  });
  if (!charge.isPaid) return suspend();

  // Periods follow each other; after a long outage the new one starts now, not in the past.
  const nowParam = sql`${now.toISOString()}::timestamptz`;
  await tx
    .update(services)
    .set({
      paidUntil: sql`CASE WHEN ${services.paidUntil} + interval '1 month' > ${nowParam}
        THEN ${services.paidUntil} + interval '1 month'
        ELSE ${nowParam} + interval '1 month' END`,
      updatedAt: now,
    })
    .where(eq(services.id, service.id));
  return 'renewed';
}
