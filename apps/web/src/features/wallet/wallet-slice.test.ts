import type { PaymentHistoryItem } from '@portal/contracts/wallet';
import { describe, expect, it } from 'vitest';
import {
  fetchMorePaymentHistory,
  fetchPaymentHistory,
  historyFilterChanged,
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
  it('offers card and sbp and starts with the history loading', () => {
    expect(initial.paymentMethods).toEqual(['card', 'sbp']);
    expect(initial.paymentHistory).toEqual([]);
    expect(initial.isLoadingHistory).toBe(true);
  });

  it('loading → loaded with the list', () => {
    let state = reduce(initial, fetchPaymentHistory.pending('r1', filter));
    expect(state.isLoadingHistory).toBe(true);
    state = reduce(state, fetchPaymentHistory.fulfilled(page(['a', 'b'], 'c2'), 'r1', filter));
    expect(state.paymentHistory.map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(state.isLoadingHistory).toBe(false);
    expect(state.nextCursor).toBe('c2');
  });

  it('failed → empty list and loading off', () => {
    let state = reduce(initial, fetchPaymentHistory.fulfilled(page(['a']), 'r0', filter));
    state = reduce(state, fetchPaymentHistory.pending('r1', filter));
    state = reduce(state, fetchPaymentHistory.rejected(null, 'r1', filter, 'Ошибка запроса'));
    expect(state.paymentHistory).toEqual([]);
    expect(state.isLoadingHistory).toBe(false);
  });

  it('drops the answer of a filter that was replaced while it loaded', () => {
    let state = reduce(initial, fetchPaymentHistory.pending('old', filter));
    state = reduce(state, historyFilterChanged({ direction: 'writeOff' }));
    state = reduce(state, fetchPaymentHistory.pending('new', filter));
    state = reduce(state, fetchPaymentHistory.fulfilled(page(['new-1']), 'new', filter));
    state = reduce(state, fetchPaymentHistory.fulfilled(page(['old-1']), 'old', filter));
    expect(state.paymentHistory.map((entry) => entry.id)).toEqual(['new-1']);
    expect(state.filter).toEqual({ direction: 'writeOff', currency: 'all' });
  });

  it('appends the next page without repeating entries', () => {
    let state = reduce(initial, fetchPaymentHistory.pending('r1', filter));
    state = reduce(state, fetchPaymentHistory.fulfilled(page(['a', 'b'], 'c2'), 'r1', filter));
    state = reduce(state, fetchMorePaymentHistory.pending('m1'));
    expect(state.isLoadingMore).toBe(true);
    state = reduce(state, fetchMorePaymentHistory.fulfilled(page(['b', 'c'], null), 'm1'));
    expect(state.paymentHistory.map((entry) => entry.id)).toEqual(['a', 'b', 'c']);
    expect(state.nextCursor).toBeNull();
    expect(state.isLoadingMore).toBe(false);
  });

  it('ignores a next page that belongs to the previous filter', () => {
    let state = reduce(initial, fetchPaymentHistory.pending('r1', filter));
    state = reduce(state, fetchPaymentHistory.fulfilled(page(['a'], 'c2'), 'r1', filter));
    state = reduce(state, fetchMorePaymentHistory.pending('m1'));
    state = reduce(state, fetchPaymentHistory.pending('r2', filter));
    state = reduce(state, fetchPaymentHistory.fulfilled(page(['x'], 'c9'), 'r2', filter));
    state = reduce(state, fetchMorePaymentHistory.fulfilled(page(['stale']), 'm1'));
    expect(state.paymentHistory.map((entry) => entry.id)).toEqual(['x']);
    expect(state.nextCursor).toBe('c9');
  });
});
