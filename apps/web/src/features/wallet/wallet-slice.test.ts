import type { PaymentHistoryItem } from '@portal/contracts/wallet';
import { describe, expect, it } from 'vitest';
import {
  HISTORY_PAGE_SIZE,
  historyFilterChanged,
  historyQuery,
  mergeHistoryPages,
  walletSlice,
} from './wallet-slice';

const reduce = walletSlice.reducer;
const initial = reduce(undefined, { type: 'init' });
const filter = initial.filter;

function item(id: string): PaymentHistoryItem {
  return {
    id,
    kind: 'topUp',
    direction: 'accrual',
    currency: 'rub',
    amount: 100,
    description: 'Пополнение баланса',
    status: 'completed',
    createdAt: '2026-03-01T00:00:00Z',
  };
}

const page = (ids: string[], nextCursor: string | null = null) => ({
  data: ids.map(item),
  nextCursor,
});

describe('wallet state', () => {
  it('offers card and sbp and starts with no filter', () => {
    expect(initial.paymentMethods).toEqual(['card', 'sbp']);
    expect(filter).toEqual({ direction: 'all', currency: 'all' });
  });

  it('a filter changed is the query of its first page', () => {
    const state = reduce(initial, historyFilterChanged({ direction: 'writeOff' }));
    expect(historyQuery(state.filter)).toEqual({ limit: HISTORY_PAGE_SIZE, direction: 'writeOff' });
    expect(historyQuery(filter)).toEqual({ limit: HISTORY_PAGE_SIZE });
  });

  it('appends the next page without repeating entries', () => {
    const merged = mergeHistoryPages([page(['a', 'b'], 'c2'), page(['b', 'c'])]);
    expect(merged.map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
  });
});
