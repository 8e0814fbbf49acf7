import { eq, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/database.js';
import { addToBalanceWith, type LockedBalances, lockUserBalances } from '../accounts/index.js';
import { type LedgerEntryRow, ledgerEntries } from './schema.js';

export type Currency = LedgerEntryRow['currency'];
export type LedgerKind = LedgerEntryRow['kind'];

export interface LedgerEntryInput {
  userId: string;
  currency: Currency;
  /** Signed: kopecks for roubles, whole points for points. Never zero. */
  amount: number;
  kind: LedgerKind;
  description: string;
  reference?: string | null;
  /** One outside event changes a balance at most once: a second entry with this key is ignored. */
  idempotencyKey: string;
  createdAt: Date;
}

/**
 * The conditional balance update refused: the balance would go below zero. Thrown so that the
 * surrounding transaction, including the entry already inserted, rolls back. Callers that want
 * to decide without failing read the balance under `lockBalances` first.
 */
export class InsufficientFundsError extends Error {
  constructor(readonly currency: Currency) {
    super(`insufficient ${currency}`);
  }
}

/**
 * Writes one ledger entry and moves the balance by its amount, in the caller's transaction.
 * Answers 'duplicate' (and changes nothing) when the idempotency key was already used.
 * The balance update is conditional, so the database itself refuses to go below zero.
 */
export async function postLedgerEntry(
  tx: Tx,
  entry: LedgerEntryInput,
): Promise<'applied' | 'duplicate'> {
  if (!Number.isSafeInteger(entry.amount) || entry.amount === 0) {
    throw new Error(`ledger amount must be a non-zero integer, got ${entry.amount}`);
  }
  // One statement: the entry, and the balance moved only if the entry was new. The user's row
  // is locked before the entry's foreign key is checked (accounts' `addToBalanceWith`).
  const insert = tx
    .insert(ledgerEntries)
    .values({
      userId: entry.userId,
      currency: entry.currency,
      amount: entry.amount,
      kind: entry.kind,
      description: entry.description,
      reference: entry.reference ?? null,
      idempotencyKey: entry.idempotencyKey,
      createdAt: entry.createdAt,
    })
    .onConflictDoNothing({ target: ledgerEntries.idempotencyKey })
    .returning({ id: ledgerEntries.id });
  const outcome = await addToBalanceWith(tx, insert, entry.userId, entry.currency, entry.amount);
  if (outcome === 'refused') throw new InsufficientFundsError(entry.currency);
  return outcome === 'moved' ? 'applied' : 'duplicate';
}

/**
 * A credit (`postLedgerEntry` of a positive amount) in one statement with `guard`, the caller's
 * `UPDATE … RETURNING` of its own row, run first: the entry is written and the balance moved only
 * when the guard updated a row (else `unguarded`), and the guard's row is locked before the
 * user's. Being one statement it needs no transaction; only credits, which no balance refuses.
 */
export async function postCreditAfter(
  executor: Executor,
  guard: SQLWrapper,
  entry: LedgerEntryInput,
): Promise<'applied' | 'duplicate' | 'unguarded'> {
  if (!Number.isSafeInteger(entry.amount) || entry.amount <= 0) {
    throw new Error(`a guarded credit must be a positive integer, got ${entry.amount}`);
  }
  const insert = sql`(
    INSERT INTO ${ledgerEntries}
      (user_id, currency, amount, kind, description, reference, idempotency_key, created_at)
    SELECT ${entry.userId}::uuid, ${entry.currency}, ${entry.amount}::bigint, ${entry.kind},
      ${entry.description}, ${entry.reference ?? null}::text, ${entry.idempotencyKey},
      ${entry.createdAt.toISOString()}::timestamptz
    FROM guard
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id
  )`;
  const outcome = await addToBalanceWith(
    executor,
    insert,
    entry.userId,
    entry.currency,
    entry.amount,
    guard,
  );
  if (outcome === 'refused') throw new InsufficientFundsError(entry.currency);
  return outcome === 'moved' ? 'applied' : outcome;
}

/**
 * Locks the user's row until the transaction ends and answers the balances. Every path that
 * changes a balance takes this lock before any other write that involves the user (charges and
 * refunds also decide their amounts under it), user before service, so balance changes of one
 * user run one after another and cannot deadlock. `NO KEY UPDATE` excludes other balance writers
 * but not the foreign-key checks of unrelated inserts (a new session, say).
 */
export function lockBalances(tx: Tx, userId: string): Promise<LockedBalances | null> {
  return lockUserBalances(tx, userId);
}

/** Per currency, the sum of the user's entries; equal to the balances (tests check this). */
export async function ledgerTotals(tx: Pick<Tx, 'select'>, userId: string) {
  const rows = await tx
    .select({
      currency: ledgerEntries.currency,
      total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.userId, userId))
    .groupBy(ledgerEntries.currency);
  const totals = { rub: 0, points: 0 };
  for (const row of rows) totals[row.currency] = Number(row.total);
  return totals;
}
