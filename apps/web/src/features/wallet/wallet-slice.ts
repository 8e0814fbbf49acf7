import { OFFERED_PAYMENT_METHODS } from '@portal/contracts/constants';
import type {
  HistoryCurrency,
  HistoryDirection,
  OfferedPaymentMethod,
  PaymentHistoryItem,
  PaymentHistoryQuery,
} from '@portal/contracts/wallet';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth';

export const HISTORY_PAGE_SIZE = 20;

export type HistoryFilter = {
  direction: HistoryDirection | 'all';
  currency: HistoryCurrency | 'all';
};

/**
 * Wallet state: the offered methods and the history's filter. The history itself is server data:
 * the wallet's queries (`api/wallet-api.ts`) hold it.
 */
type WalletState = {
  paymentMethods: OfferedPaymentMethod[];
  filter: HistoryFilter;
};

const initialState: WalletState = {
  paymentMethods: [...OFFERED_PAYMENT_METHODS],
  filter: { direction: 'all', currency: 'all' },
};

/** The filters on screen as the history's query parameters ('all' is no filter). */
export function historyFilterQuery(
  filter: HistoryFilter,
): Pick<PaymentHistoryQuery, 'direction' | 'currency'> {
  return {
    ...(filter.direction === 'all' ? {} : { direction: filter.direction }),
    ...(filter.currency === 'all' ? {} : { currency: filter.currency }),
  };
}

/** The history's first page for a filter (the next pages add their cursor). */
export function historyQuery(filter: HistoryFilter): Omit<PaymentHistoryQuery, 'cursor'> {
  return { limit: HISTORY_PAGE_SIZE, ...historyFilterQuery(filter) };
}

/** The pages in order; a page can overlap the previous one when entries arrived in between. */
export function mergeHistoryPages(pages: { data: PaymentHistoryItem[] }[]): PaymentHistoryItem[] {
  const known = new Set<string>();
  const merged: PaymentHistoryItem[] = [];
  for (const item of pages.flatMap((page) => page.data)) {
    if (known.has(item.id)) continue;
    known.add(item.id);
    merged.push(item);
  }
  return merged;
}

export const walletSlice = createSlice({
  name: 'wallet',
  initialState,
  reducers: {
    historyFilterChanged: (state, action: PayloadAction<Partial<HistoryFilter>>) => {
      state.filter = { ...state.filter, ...action.payload };
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
  selectors: {
    selectPaymentMethods: (state) => state.paymentMethods,
    selectHistoryFilter: (state) => state.filter,
  },
});

export const { historyFilterChanged } = walletSlice.actions;
export const { selectPaymentMethods, selectHistoryFilter } = walletSlice.selectors;
