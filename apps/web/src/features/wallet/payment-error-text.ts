import { PAYMENT_REQUEST_FAILED, SOMETHING_WENT_WRONG } from '@portal/contracts/messages';
import { noAnswerText, toApiFailure } from '@/shared/api/api-failure';

/** The answer came back but said `status` is not ok: its message is what the user sees. */
export class PaymentRefusedError extends Error {
  override name = 'PaymentRefusedError';
}

/**
 * A payment's error: status not ok → the server message; a request with no answer → «Нет
 * соединения…»; an answered request error → the server message, else 'Ошибка при отправке
 * запроса.'; anything else → 'Что-то пошло не так.'.
 */
export function paymentErrorText(error: unknown): string {
  if (error instanceof PaymentRefusedError) return error.message || PAYMENT_REQUEST_FAILED;
  const failure = toApiFailure(error);
  if (failure.isRequestError) {
    return noAnswerText(failure) ?? failure.message ?? PAYMENT_REQUEST_FAILED;
  }
  return SOMETHING_WENT_WRONG;
}
