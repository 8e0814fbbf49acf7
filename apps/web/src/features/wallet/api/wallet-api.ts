import {
  type PaymentHistoryAnswer,
  type PaymentHistoryQuery,
  paymentHistoryAnswerSchema,
  type ReceiptAnswer,
  receiptAnswerSchema,
} from '@portal/contracts/wallet';
import { portalApi } from '@/shared/api/portal-api';

/**
 * The caller's ledger and receipts, read on the main base (`/payments/*`). The answers are checked
 * by their schemas; zod comes with the wallet's pages, never with the store every page starts
 * with. Both read again when the user changes (`User`: a top-up's money arrived).
 */
export const walletApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** The ledger, newest first (`GET /payments/payments/user`), a page at a time by cursor. */
    paymentHistory: build.infiniteQuery<
      PaymentHistoryAnswer,
      Omit<PaymentHistoryQuery, 'cursor'>,
      string | null
    >({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
      },
      query: ({ queryArg, pageParam }) => ({
        base: 'main',
        url: '/payments/payments/user',
        params: { ...queryArg, ...(pageParam ? { cursor: pageParam } : {}) },
      }),
      transformResponse: (answer: unknown) => paymentHistoryAnswerSchema.parse(answer),
      providesTags: ['PaymentHistory', 'User'],
    }),
    /** The latest entries of one currency, for the balance chart. */
    latestPayments: build.query<PaymentHistoryAnswer, Omit<PaymentHistoryQuery, 'cursor'>>({
      query: (query) => ({ base: 'main', url: '/payments/payments/user', params: query }),
      transformResponse: (answer: unknown) => paymentHistoryAnswerSchema.parse(answer),
      providesTags: ['PaymentHistory', 'User'],
    }),
    /** One of the caller's own receipts (`GET /payments/receipts/:id`); another's is a 404. */
    receipt: build.query<ReceiptAnswer, string>({
      query: (id) => ({ base: 'main', url: `/payments/receipts/${encodeURIComponent(id)}` }),
      transformResponse: (answer: unknown) => receiptAnswerSchema.parse(answer),
      providesTags: (_answer, _error, id) => [{ type: 'Receipt', id }],
    }),
  }),
});

export const { usePaymentHistoryInfiniteQuery, useLatestPaymentsQuery, useReceiptQuery } =
  walletApi;
