import { type ReceiptAnswer, receiptAnswerSchema } from '@portal/contracts/wallet';
import { api } from '@/shared/api/http';

/** One of the caller's own receipts (`GET /payments/receipts/:id`); another's is a 404. */
export async function getReceipt(id: string, signal?: AbortSignal): Promise<ReceiptAnswer> {
  const { data } = await api.get<unknown>(`/payments/receipts/${encodeURIComponent(id)}`, {
    signal,
    requiresAuth: true,
  });
  return receiptAnswerSchema.parse(data);
}
