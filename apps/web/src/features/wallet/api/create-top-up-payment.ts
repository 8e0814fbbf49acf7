import {
  cardPaymentAnswerSchema,
  type OfferedPaymentMethod,
  type PaymentRequest,
  sbpPaymentAnswerSchema,
} from '@portal/contracts/wallet';
import { z } from 'zod';
import { msApi } from '@/shared/api/http';
import { PaymentRefusedError } from '../payment-error-text';

// A refusal need not carry `data`, so the status is read before the full answer is checked.
const refusalSchema = z.object({ status: z.string(), message: z.string().optional() });

function throwIfRefused(data: unknown): void {
  const answer = refusalSchema.safeParse(data);
  if (answer.success && answer.data.status !== 'ok') {
    throw new PaymentRefusedError(answer.data.message ?? '');
  }
}

/** A fresh key per attempt: a double click or a retried request never starts two payments. */
function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; a portal served over plain http still needs a key.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Starts a top-up and answers the address to send the browser to: the card checkout page
 * (`Payment/create` → `data.paymentUrl`) or the SBP page (`Payment/sbp/qr` → `data`). `signal`
 * gives it up when the dialog closes (`top-up-form.tsx`).
 */
export async function createTopUpPayment(
  method: OfferedPaymentMethod,
  payload: PaymentRequest,
  signal?: AbortSignal,
): Promise<string> {
  const headers = { 'Idempotency-Key': newIdempotencyKey() };
  if (method === 'card') {
    const { data } = await msApi.post<unknown>('/paymentms/api/Payment/create', payload, {
      headers,
      signal,
    });
    throwIfRefused(data);
    return cardPaymentAnswerSchema.parse(data).data.paymentUrl;
  }
  const { data } = await msApi.post<unknown>('/paymentms/api/Payment/sbp/qr', payload, {
    headers,
    signal,
  });
  throwIfRefused(data);
  return sbpPaymentAnswerSchema.parse(data).data;
}
