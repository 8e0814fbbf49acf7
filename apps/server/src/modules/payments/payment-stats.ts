import { and, count, inArray, isNull, min } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { payments } from './schema.js';
import { UNSETTLED_STATUSES } from './statuses.js';

export interface PaymentStats {
  byStatus: Record<string, number>;
  /** How long the oldest payment neither paid nor finished has waited; 0 when none. */
  oldestUnsettledAgeSeconds: number;
}

/**
 * Payments by status (one pass over the table; payments are few next to requests) and the age of
 * the oldest unsettled one (the `payments_awaiting_idx` partial index). The metrics read it at
 * scrape time (modules/metrics/database-readings.ts); the query stays here, beside the table.
 */
export async function paymentStats(db: Executor, now: Date): Promise<PaymentStats> {
  const [rows, [oldest]] = await Promise.all([
    db.select({ status: payments.status, count: count() }).from(payments).groupBy(payments.status),
    db
      .select({ at: min(payments.createdAt) })
      .from(payments)
      .where(and(isNull(payments.creditedAt), inArray(payments.status, [...UNSETTLED_STATUSES]))),
  ]);
  const at = oldest?.at;
  return {
    byStatus: Object.fromEntries(rows.map((row) => [row.status, row.count])),
    oldestUnsettledAgeSeconds: at ? Math.max(0, (now.getTime() - at.getTime()) / 1000) : 0,
  };
}
