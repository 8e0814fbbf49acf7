import type { PaymentHistoryItem } from '@portal/contracts/wallet';

export type BalancePoint = { time: number; balance: number };

/** Whole kopecks (or points) so that adding up many entries leaves no float dust. */
const toUnits = (value: number) => Math.round(value * 100);
const fromUnits = (units: number) => units / 100;

function signedUnits(item: PaymentHistoryItem): number {
  const units = toUnits(item.amount);
  return item.direction === 'accrual' ? units : -units;
}

/**
 * The balance over time, oldest first, rebuilt backwards from today's balance through a
 * newest-first list of one currency's entries. Only completed entries moved the balance. The
 * first point is the balance before the oldest entry; the last is today's balance, at `now`.
 */
export function balanceSeries(
  currentBalance: number,
  newestFirst: readonly PaymentHistoryItem[],
  now: number = Date.now(),
): BalancePoint[] {
  const settled = newestFirst.filter((item) => item.status === 'completed');
  if (settled.length === 0) return [];
  const points: BalancePoint[] = [{ time: now, balance: fromUnits(toUnits(currentBalance)) }];
  let after = toUnits(currentBalance);
  for (const item of settled) {
    const time = new Date(item.createdAt).getTime();
    points.push({ time, balance: fromUnits(after) });
    after -= signedUnits(item);
    points.push({ time, balance: fromUnits(after) });
  }
  // Each entry is a vertical step: the balance before it and after it at the same moment.
  return points.reverse();
}
