import { CASHBACK_PERCENT } from '@portal/contracts/constants';
import type { Tx } from '../../db/database.js';
import { lockBalances, postLedgerEntry } from '../payments/index.js';

const KOPECKS_PER_POINT = 100;

export interface ChargeSplit {
  totalKopecks: number;
  /** Whole points spent; each covers one rouble. */
  points: number;
  /** What is left for the rouble balance. */
  kopecks: number;
  /** CASHBACK_PERCENT of the rouble part, in whole points, rounded down. */
  cashbackPoints: number;
}

/**
 * How a price is paid: with `usePoints`, whole points first (1 point = 1 ₽, never more points
 * than whole roubles in the price), then roubles; cashback is 5% of the rouble part only,
 * floored to whole points (179 000 kopecks → 89 points).
 */
export function splitCharge(
  totalKopecks: number,
  availablePoints: number,
  usePoints: boolean,
): ChargeSplit {
  const points = usePoints
    ? Math.min(availablePoints, Math.floor(totalKopecks / KOPECKS_PER_POINT))
    : 0;
  const kopecks = totalKopecks - points * KOPECKS_PER_POINT;
  const cashbackPoints = Math.floor((kopecks * CASHBACK_PERCENT) / 100 / KOPECKS_PER_POINT);
  return { totalKopecks, points, kopecks, cashbackPoints };
}

export interface ChargeInput {
  userId: string;
  totalKopecks: number;
  usePoints: boolean;
  kind: 'purchase' | 'renewal';
  /** What the entries say, e.g. 'Оплата услуги «Хостинг»'. */
  description: string;
  cashbackDescription: string;
  reference: string;
  /** Prefix of the entries' idempotency keys: one charge per outside event. */
  eventKey: string;
  now: Date;
}

export type ChargeResult =
  | { isPaid: true; split: ChargeSplit; balanceKopecks: number; balancePoints: number }
  | { isPaid: false; split: ChargeSplit; balanceKopecks: number; balancePoints: number };

/**
 * Charges the user in the caller's transaction, under the user's row lock: points first when
 * asked, then roubles, then the cashback, each a ledger entry. When the money is short nothing
 * is written and `isPaid` is false.
 */
export async function chargeUser(tx: Tx, input: ChargeInput): Promise<ChargeResult> {
  const balances = await lockBalances(tx, input.userId);
  if (!balances) throw new Error(`user ${input.userId} vanished during a charge`);
  const split = splitCharge(input.totalKopecks, balances.points, input.usePoints);
  if (split.kopecks > balances.kopecks) {
    return {
      isPaid: false,
      split,
      balanceKopecks: balances.kopecks,
      balancePoints: balances.points,
    };
  }
  const entry = { userId: input.userId, reference: input.reference, createdAt: input.now };
  if (split.points > 0) {
    await postLedgerEntry(tx, {
      ...entry,
      currency: 'points',
      amount: -split.points,
      kind: input.kind,
      description: input.description,
      idempotencyKey: `${input.eventKey}:points`,
    });
  }
  if (split.kopecks > 0) {
    await postLedgerEntry(tx, {
      ...entry,
      currency: 'rub',
      amount: -split.kopecks,
      kind: input.kind,
      description: input.description,
      idempotencyKey: `${input.eventKey}:rub`,
    });
  }
  if (split.cashbackPoints > 0) {
    await postLedgerEntry(tx, {
      ...entry,
      currency: 'points',
      amount: split.cashbackPoints,
      kind: 'cashback',
      description: input.cashbackDescription,
      idempotencyKey: `${input.eventKey}:cashback`,
    });
  }
  return {
    isPaid: true,
    split,
    balanceKopecks: balances.kopecks - split.kopecks,
    balancePoints: balances.points - split.points + split.cashbackPoints,
  };
}
