/**
 * The wallet's rows of one account for its owner's data export (modules/account-data), page by
 * page in keyset order, so a long history is never held whole; and the check that refuses a
 * deletion while a top-up is in progress.
 */
import { and, asc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/database.js';
import { ledgerEntries, payments } from './schema.js';
import { UNSETTLED_STATUSES } from './statuses.js';

/** Where the previous page ended: its last row's time and id. */
export interface RowKey {
  createdAt: Date;
  id: string;
}

const after = (columns: { createdAt: PgColumn; id: PgColumn }, key: RowKey | undefined) =>
  key
    ? or(
        gt(columns.createdAt, key.createdAt),
        and(eq(columns.createdAt, key.createdAt), gt(columns.id, key.id)),
      )
    : undefined;

/** Ledger entries oldest first, `limit` after `key`. */
export function ledgerPageOf(executor: Executor, userId: string, limit: number, key?: RowKey) {
  return executor
    .select({
      id: ledgerEntries.id,
      createdAt: ledgerEntries.createdAt,
      currency: ledgerEntries.currency,
      amount: ledgerEntries.amount,
      kind: ledgerEntries.kind,
      description: ledgerEntries.description,
      reference: ledgerEntries.reference,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.userId, userId), after(ledgerEntries, key)))
    .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id))
    .limit(limit);
}

/** Top-ups oldest first, `limit` after `key`; without the provider's page address. */
export function paymentPageOf(executor: Executor, userId: string, limit: number, key?: RowKey) {
  return executor
    .select({
      id: payments.id,
      createdAt: payments.createdAt,
      method: payments.method,
      amountKopecks: payments.amountKopecks,
      provider: payments.provider,
      status: payments.status,
      creditedAt: payments.creditedAt,
      refundedKopecks: payments.refundedKopecks,
    })
    .from(payments)
    .where(and(eq(payments.userId, userId), after(payments, key)))
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(limit);
}

/** Whether a top-up of the account is still under way (money may yet arrive). */
export async function hasTopUpInProgress(executor: Executor, userId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        isNull(payments.creditedAt),
        inArray(payments.status, [...UNSETTLED_STATUSES]),
      ),
    )
    .limit(1);
  return row !== undefined;
}
