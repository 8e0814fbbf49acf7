import type { PaymentHistoryItem } from '@portal/contracts/wallet';
import { describe, expect, it } from 'vitest';
import { balanceSeries } from './balance-series';

function entry(
  amount: number,
  direction: PaymentHistoryItem['direction'],
  createdAt: string,
  status: PaymentHistoryItem['status'] = 'completed',
): PaymentHistoryItem {
  return {
    id: createdAt,
    kind: direction === 'accrual' ? 'topUp' : 'purchase',
    direction,
    currency: 'rub',
    amount,
    description: '',
    status,
    createdAt,
  };
}

const t = (iso: string) => new Date(iso).getTime();
const now = t('2026-03-10T00:00:00Z');

describe('balanceSeries', () => {
  it('walks back from the current balance through the entries', () => {
    // 0 → +2000 → −1790 → +0.10 ends at 210.10.
    const history = [
      entry(0.1, 'accrual', '2026-03-03T00:00:00Z'),
      entry(1790, 'writeOff', '2026-03-02T00:00:00Z'),
      entry(2000, 'accrual', '2026-03-01T00:00:00Z'),
    ];
    expect(balanceSeries(210.1, history, now)).toEqual([
      { time: t('2026-03-01T00:00:00Z'), balance: 0 },
      { time: t('2026-03-01T00:00:00Z'), balance: 2000 },
      { time: t('2026-03-02T00:00:00Z'), balance: 2000 },
      { time: t('2026-03-02T00:00:00Z'), balance: 210 },
      { time: t('2026-03-03T00:00:00Z'), balance: 210 },
      { time: t('2026-03-03T00:00:00Z'), balance: 210.1 },
      { time: now, balance: 210.1 },
    ]);
  });

  it('skips entries that did not move the balance', () => {
    const history = [
      entry(500, 'accrual', '2026-03-02T00:00:00Z', 'pending'),
      entry(500, 'accrual', '2026-03-01T00:00:00Z'),
    ];
    expect(balanceSeries(500, history, now).map((point) => point.balance)).toEqual([0, 500, 500]);
  });

  it('has nothing to draw without settled entries', () => {
    expect(balanceSeries(100, [], now)).toEqual([]);
    expect(
      balanceSeries(100, [entry(5, 'accrual', '2026-03-01T00:00:00Z', 'failed')], now),
    ).toEqual([]);
  });
});
