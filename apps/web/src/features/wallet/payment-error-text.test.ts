import { NO_CONNECTION, TOP_UP_NOT_CONFIGURED } from '@portal/contracts/messages';
import { describe, expect, it } from 'vitest';
import { HttpError } from '@/shared/api/http';
import { PaymentRefusedError, paymentErrorText } from './payment-error-text';

function requestError(status: number | null, data?: unknown) {
  const response = status === null ? undefined : { status, headers: {}, data: data ?? null };
  return new HttpError('Request failed', response);
}

describe('paymentErrorText', () => {
  it('shows the server message when the answer says status is not ok', () => {
    expect(paymentErrorText(new PaymentRefusedError('Платёжная система недоступна'))).toBe(
      'Платёжная система недоступна',
    );
  });

  it('shows the server message of a failed request', () => {
    expect(
      paymentErrorText(requestError(400, { message: 'Минимальная сумма пополнения 10 ₽' })),
    ).toBe('Минимальная сумма пополнения 10 ₽');
  });

  it('shows why top-ups are off on a portal without a payment terminal (503)', () => {
    expect(paymentErrorText(requestError(503, { message: TOP_UP_NOT_CONFIGURED }))).toBe(
      'Пополнение временно недоступно: платёжный провайдер не настроен',
    );
  });

  it("falls back to 'Ошибка при отправке запроса.' for a request error without a message", () => {
    expect(paymentErrorText(requestError(502, '<html>Bad gateway</html>'))).toBe(
      'Ошибка при отправке запроса.',
    );
    expect(paymentErrorText(requestError(500, { message: '   ' }))).toBe(
      'Ошибка при отправке запроса.',
    );
  });

  it('says there is no connection when the request got no answer', () => {
    expect(paymentErrorText(new HttpError(NO_CONNECTION))).toBe(
      'Нет соединения с сервером. Проверьте интернет и повторите.',
    );
  });

  it("says 'Что-то пошло не так.' for anything that is not a request error", () => {
    expect(paymentErrorText(new TypeError('x is undefined'))).toBe('Что-то пошло не так.');
    expect(paymentErrorText('boom')).toBe('Что-то пошло не так.');
  });
});
