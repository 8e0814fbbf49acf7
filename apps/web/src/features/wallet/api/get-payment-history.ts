import {
  type PaymentHistoryAnswer,
  type PaymentHistoryQuery,
  paymentHistoryAnswerSchema,
} from '@portal/contracts/wallet';
import { api } from '@/shared/api/http';

/** One page of the caller's ledger, newest first (`GET /payments/payments/user`). */
export async function getPaymentHistory(
  query: PaymentHistoryQuery,
  signal?: AbortSignal,
): Promise<PaymentHistoryAnswer> {
  const { data } = await api.get<unknown>('/payments/payments/user', {
    params: query,
    signal,
    requiresAuth: true,
  });
  return paymentHistoryAnswerSchema.parse(data);
}
