import type { PaymentHistoryItem } from '@portal/contracts/wallet';
import { describe, expect, it } from 'vitest';
import { historyEntryView } from './history-status';

const pending: PaymentHistoryItem = {
  id: 'p1',
  kind: 'topUp',
  direction: 'accrual',
  currency: 'rub',
  amount: 500,
  description: 'Пополнение баланса картой',
  status: 'pending',
  createdAt: '2026-11-21T10:00:00.000Z',
  expiresAt: '2026-11-22T10:00:00.000Z',
  continueUrl: 'https://securepay.tinkoff.ru/new/fU1ppgqa',
};
const expiry = Date.parse(pending.expiresAt!);

describe('historyEntryView', () => {
  it('a pending top-up offers its page until it expires', () => {
    expect(historyEntryView(pending, expiry - 1)).toEqual({
      status: 'pending',
      continueUrl: 'https://securepay.tinkoff.ru/new/fU1ppgqa',
    });
  });

  it('from the moment it expires, it is unfinished and offers nothing', () => {
    expect(historyEntryView(pending, expiry)).toEqual({ status: 'unfinished', continueUrl: null });
  });

  it('a pending top-up without a page yet offers nothing', () => {
    const { continueUrl: _url, ...starting } = pending;
    expect(historyEntryView(starting, expiry - 1)).toEqual({
      status: 'pending',
      continueUrl: null,
    });
  });

  it('other entries read as the server says, with no link', () => {
    for (const status of ['completed', 'unfinished', 'failed', 'canceled'] as const) {
      expect(historyEntryView({ ...pending, status }, expiry - 1)).toEqual({
        status,
        continueUrl: null,
      });
    }
  });
});
