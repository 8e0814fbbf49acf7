import { describe, expect, it } from 'vitest';
import { fieldMessagesOf, messagesOf } from '../test/support/schema-messages';
import { OFFERED_PAYMENT_METHODS } from './constants';
import { AMOUNT_NOT_POSITIVE, AMOUNT_TOO_PRECISE } from './messages';
import {
  buildTopUpPayment,
  cardPaymentAnswerSchema,
  PAYMENT_METHOD_TITLES,
  paymentAmountSchema,
  paymentHistoryAnswerSchema,
  paymentHistoryQuerySchema,
  paymentMethodIdSchema,
  paymentRequestSchema,
  sbpPaymentAnswerSchema,
  topUpFormSchema,
} from './wallet';

describe('payment methods', () => {
  it('knows five methods, each with a title, and offers only card and sbp', () => {
    expect(paymentMethodIdSchema.options).toEqual(['card', 'sbp', 'crypto', 'yaPay', 'yaSplit']);
    for (const id of paymentMethodIdSchema.options) expect(PAYMENT_METHOD_TITLES[id]).toBeTruthy();
    expect(OFFERED_PAYMENT_METHODS).toEqual(['card', 'sbp']);
  });
});

describe('top-up form', () => {
  it('takes any number, no client minimum or maximum', () => {
    for (const amount of [500, 1, 0.5, 10_000_000]) {
      expect(fieldMessagesOf(topUpFormSchema, { amount })).toEqual({});
    }
  });

  it('refuses zero, a negative amount and a third decimal with the request’s words', () => {
    for (const amount of [0, -5]) {
      expect(fieldMessagesOf(topUpFormSchema, { amount })).toEqual({
        amount: [AMOUNT_NOT_POSITIVE],
      });
    }
    expect(fieldMessagesOf(topUpFormSchema, { amount: 10.555 })).toEqual({
      amount: [AMOUNT_TOO_PRECISE],
    });
  });

  it('refuses a non-number', () => {
    expect(fieldMessagesOf(topUpFormSchema, { amount: '500' })).toEqual({
      amount: ['Введите сумму'],
    });
    expect(fieldMessagesOf(topUpFormSchema, { amount: Number.NaN })).toEqual({
      amount: ['Введите сумму'],
    });
  });
});

describe('payment request', () => {
  it('builds the payload with its receipt, and the server accepts it', () => {
    const payment = buildTopUpPayment({ userId: 'u1', email: 'a@b.ru', amount: 1500 });
    expect(payment).toEqual({
      userId: 'u1',
      amount: 1500,
      description: 'Пополнение баланса',
      email: 'a@b.ru',
      isRecurrent: false,
      receipt: {
        email: 'a@b.ru',
        taxation: 'osn',
        items: [
          { name: 'Пополнение баланса', price: 1500, quantity: 1, amount: 1500, tax: 'none' },
        ],
      },
    });
    expect(fieldMessagesOf(paymentRequestSchema, payment)).toEqual({});
  });

  it('needs only a positive amount with at most two decimals', () => {
    expect(fieldMessagesOf(paymentRequestSchema, { amount: 99.99 })).toEqual({});
    expect(messagesOf(paymentAmountSchema, 0)).toEqual(['Сумма должна быть больше нуля']);
    expect(messagesOf(paymentAmountSchema, -5)).toEqual(['Сумма должна быть больше нуля']);
    expect(messagesOf(paymentAmountSchema, 10.001)).toEqual([
      'Сумма может содержать не более двух знаков после запятой',
    ]);
    expect(messagesOf(paymentAmountSchema, '500')).toEqual(['Введите сумму']);
  });

  it('answers card and sbp in their own shapes', () => {
    expect(
      cardPaymentAnswerSchema.safeParse({
        status: 'ok',
        data: { paymentUrl: 'https://pay.example/1' },
        message: 'Платёж создан',
      }).success,
    ).toBe(true);
    expect(
      sbpPaymentAnswerSchema.safeParse({ status: 'ok', data: 'https://qr.nspk.ru/x', message: '' })
        .success,
    ).toBe(true);
    expect(sbpPaymentAnswerSchema.safeParse({ status: 'ok', data: {}, message: '' }).success).toBe(
      false,
    );
  });
});

describe('payment history', () => {
  const item = {
    id: 'e1',
    kind: 'cashback',
    direction: 'accrual',
    currency: 'points',
    amount: 50,
    description: 'Кэшбэк за покупку',
    status: 'completed',
    createdAt: '2025-03-01T10:00:00.000Z',
  };

  it('lists entries with a cursor', () => {
    expect(paymentHistoryAnswerSchema.safeParse({ data: [item], nextCursor: 'c' }).success).toBe(
      true,
    );
    expect(paymentHistoryAnswerSchema.safeParse({ data: [] }).success).toBe(true);
    expect(
      paymentHistoryAnswerSchema.safeParse({ data: [{ ...item, direction: 'in' }] }).success,
    ).toBe(false);
  });

  it('a pending top-up may carry its page and expiry; only a web address is a page', () => {
    const pending = {
      ...item,
      kind: 'topUp',
      currency: 'rub',
      status: 'pending',
      expiresAt: '2025-03-02T10:00:00.000Z',
      continueUrl: 'https://securepay.tinkoff.ru/new/fU1ppgqa',
    };
    expect(paymentHistoryAnswerSchema.safeParse({ data: [pending] }).success).toBe(true);
    expect(
      paymentHistoryAnswerSchema.safeParse({ data: [{ ...item, status: 'unfinished' }] }).success,
    ).toBe(true);
    for (const continueUrl of ['javascript:alert(1)', 'data:text/html,x', '/relative']) {
      expect(
        paymentHistoryAnswerSchema.safeParse({ data: [{ ...pending, continueUrl }] }).success,
        continueUrl,
      ).toBe(false);
    }
  });

  it('reads the page size from the query string', () => {
    expect(paymentHistoryQuerySchema.parse({ limit: '20' })).toEqual({ limit: 20 });
    expect(paymentHistoryQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
    expect(paymentHistoryQuerySchema.safeParse({ limit: '101' }).success).toBe(false);
  });

  it('filters by direction and currency from the query string', () => {
    expect(paymentHistoryQuerySchema.parse({ direction: 'writeOff', currency: 'points' })).toEqual({
      direction: 'writeOff',
      currency: 'points',
    });
    expect(paymentHistoryQuerySchema.safeParse({ direction: 'out' }).success).toBe(false);
    expect(paymentHistoryQuerySchema.safeParse({ currency: 'usd' }).success).toBe(false);
  });
});
