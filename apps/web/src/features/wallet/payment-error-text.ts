import { PAYMENT_REQUEST_FAILED, SOMETHING_WENT_WRONG } from '@portal/contracts/messages';
import axios from 'axios';

/** The answer came back but said `status` is not ok: its message is what the user sees. */
export class PaymentRefusedError extends Error {
  override name = 'PaymentRefusedError';
}

function serverMessage(data: unknown): string | undefined {
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.trim()) return message;
  }
  return undefined;
}

/**
 * Spec §8 "Payment": status not ok → the server message; a request error → the server message,
 * else 'Ошибка при отправке запроса.'; anything else → 'Что-то пошло не так.'.
 */
export function paymentErrorText(error: unknown): string {
  if (error instanceof PaymentRefusedError) return error.message || PAYMENT_REQUEST_FAILED;
  if (axios.isAxiosError(error)) {
    return serverMessage(error.response?.data) ?? PAYMENT_REQUEST_FAILED;
  }
  return SOMETHING_WENT_WRONG;
}
