import { OFFERED_PAYMENT_METHODS } from '@portal/contracts/constants';
import type {
  HistoryCurrency,
  HistoryDirection,
  OfferedPaymentMethod,
  PaymentHistoryItem,
  PaymentHistoryQuery,
} from '@portal/contracts/wallet';
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { loadOnce } from '@/shared/lib/load-once';
import type { getPaymentHistory as GetPaymentHistory } from './api/get-payment-history';

/**
 * The history's call, which checks the answer by its schema: loaded with the first page, so the
 * store every page starts with brings no zod (the first-visit budgets of
 * apps/web/e2e/budgets-auth-bundle.e2e.ts). Its load failing (no connection) fails the call with
 * «Нет соединения…», and the next call loads again.
 */
const loadHistoryCall = loadOnce(() => import('./api/get-payment-history'));
const getPaymentHistory: typeof GetPaymentHistory = async (...args) =>
  (await loadHistoryCall()).getPaymentHistory(...args);

const HISTORY_PAGE_SIZE = 20;

export type HistoryFilter = {
  direction: HistoryDirection | 'all';
  currency: HistoryCurrency | 'all';
};

/** Wallet state: the offered methods, the history and whether it is loading. */
type WalletState = {
  paymentMethods: OfferedPaymentMethod[];
  paymentHistory: PaymentHistoryItem[];
  /** Initially true, so the history screen starts with its loading state. */
  isLoadingHistory: boolean;
  isLoadingMore: boolean;
  nextCursor: string | null;
  filter: HistoryFilter;
  /** The requests whose answers the list takes; answers to an older filter are dropped. */
  historyRequestId: string | null;
  moreRequestId: string | null;
};

const initialState: WalletState = {
  paymentMethods: [...OFFERED_PAYMENT_METHODS],
  paymentHistory: [],
  isLoadingHistory: true,
  isLoadingMore: false,
  nextCursor: null,
  filter: { direction: 'all', currency: 'all' },
  historyRequestId: null,
  moreRequestId: null,
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

function toQuery(filter: HistoryFilter, cursor?: string): PaymentHistoryQuery {
  return { limit: HISTORY_PAGE_SIZE, ...(cursor ? { cursor } : {}), ...historyFilterQuery(filter) };
}

type ThunkState = { wallet: WalletState };
type HistoryPage = Awaited<ReturnType<typeof getPaymentHistory>>;
/** A failure carries its toast text, worked out while the error is still an error. */
type ThunkConfig = { state: ThunkState; rejectValue: string };

/** The first page for a filter: loading → loaded, or failed → empty list. */
export const fetchPaymentHistory = createAsyncThunk<HistoryPage, HistoryFilter, ThunkConfig>(
  'wallet/fetchHistory',
  async (filter, { signal, rejectWithValue }) => {
    try {
      return await getPaymentHistory(toQuery(filter), signal);
    } catch (error) {
      return rejectWithValue(toApiFailure(error).text);
    }
  },
);

/** The next page ('Показать ещё'). */
export const fetchMorePaymentHistory = createAsyncThunk<HistoryPage, void, ThunkConfig>(
  'wallet/fetchMoreHistory',
  async (_, { getState, signal, rejectWithValue }) => {
    const { filter, nextCursor } = getState().wallet;
    try {
      return await getPaymentHistory(toQuery(filter, nextCursor ?? undefined), signal);
    } catch (error) {
      return rejectWithValue(toApiFailure(error).text);
    }
  },
  {
    condition: (_, { getState }) => {
      const { nextCursor, isLoadingMore, isLoadingHistory } = getState().wallet;
      return Boolean(nextCursor) && !isLoadingMore && !isLoadingHistory;
    },
  },
);

export const walletSlice = createSlice({
  name: 'wallet',
  initialState,
  reducers: {
    historyFilterChanged: (state, action: PayloadAction<Partial<HistoryFilter>>) => {
      state.filter = { ...state.filter, ...action.payload };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchPaymentHistory.pending, (state, action) => {
        state.isLoadingHistory = true;
        state.isLoadingMore = false;
        state.historyRequestId = action.meta.requestId;
        state.moreRequestId = null;
      })
      .addCase(fetchPaymentHistory.fulfilled, (state, action) => {
        if (state.historyRequestId !== action.meta.requestId) return;
        state.paymentHistory = action.payload.data;
        state.nextCursor = action.payload.nextCursor ?? null;
        state.isLoadingHistory = false;
      })
      .addCase(fetchPaymentHistory.rejected, (state, action) => {
        if (state.historyRequestId !== action.meta.requestId) return;
        state.paymentHistory = [];
        state.nextCursor = null;
        state.isLoadingHistory = false;
      })
      .addCase(fetchMorePaymentHistory.pending, (state, action) => {
        state.isLoadingMore = true;
        state.moreRequestId = action.meta.requestId;
      })
      .addCase(fetchMorePaymentHistory.fulfilled, (state, action) => {
        if (state.moreRequestId !== action.meta.requestId) return;
        // A page can overlap the previous one when entries arrived in between.
        const known = new Set(state.paymentHistory.map((item) => item.id));
        state.paymentHistory.push(...action.payload.data.filter((item) => !known.has(item.id)));
        state.nextCursor = action.payload.nextCursor ?? null;
        state.isLoadingMore = false;
      })
      .addCase(fetchMorePaymentHistory.rejected, (state, action) => {
        if (state.moreRequestId !== action.meta.requestId) return;
        state.isLoadingMore = false;
      })
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectPaymentMethods: (state) => state.paymentMethods,
    selectPaymentHistory: (state) => state.paymentHistory,
    selectIsLoadingHistory: (state) => state.isLoadingHistory,
    selectIsLoadingMoreHistory: (state) => state.isLoadingMore,
    selectHasMoreHistory: (state) => state.nextCursor !== null,
    selectHistoryFilter: (state) => state.filter,
  },
});

export const { historyFilterChanged } = walletSlice.actions;
export const {
  selectPaymentMethods,
  selectPaymentHistory,
  selectIsLoadingHistory,
  selectIsLoadingMoreHistory,
  selectHasMoreHistory,
  selectHistoryFilter,
} = walletSlice.selectors;
