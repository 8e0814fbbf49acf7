/**
 * What support reads of the wallet with the operator's tool (modules/operator): a payment by its
 * id or the provider's, the account's latest payments and ledger entries. Plain reads, no locks.
 */
import { desc, eq, or } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { type LedgerEntryRow, ledgerEntries, type PaymentRow, payments } from './schema.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Our id (the provider's OrderId) or the provider's PaymentId: the condition of both reads below. */
function paymentNamed(id: string) {
  const text = id.trim();
  return UUID.test(text)
    ? or(eq(payments.id, text.toLowerCase()), eq(payments.providerPaymentId, text))
    : eq(payments.providerPaymentId, text);
}

/** The payment with our id (the provider's OrderId) or the provider's PaymentId. */
export async function findPayment(executor: Executor, id: string): Promise<PaymentRow | undefined> {
  const [row] = await executor.select().from(payments).where(paymentNamed(id)).limit(1);
  return row;
}

/**
 * The accounts that made the payment `id` names (either id; two providers may have given the same
 * PaymentId): support's account search finds a payment's payer by it (plugin.ts hands it over).
 */
export async function paymentOwnerIds(executor: Executor, id: string): Promise<string[]> {
  const rows = await executor
    .selectDistinct({ userId: payments.userId })
    .from(payments)
    .where(paymentNamed(id))
    .limit(10);
  return rows.map((row) => row.userId);
}

/** The account's latest payments, newest first. */
export function recentPayments(
  executor: Executor,
  userId: string,
  limit: number,
): Promise<PaymentRow[]> {
  return executor
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(limit);
}

/** The account's latest ledger entries, newest first. */
export function recentLedgerEntries(
  executor: Executor,
  userId: string,
  limit: number,
): Promise<LedgerEntryRow[]> {
  return executor
    .select()
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(limit);
}
