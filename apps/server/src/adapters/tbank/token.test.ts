import { describe, expect, it } from 'vitest';
import { hasValidTbankToken, signTbankRequest, tbankToken, tokenSource } from './token.js';

// T-Bank's documented request and notification vectors; the GetState one we computed ourselves.
describe('T-Bank token', () => {
  it('signs the official Init request vector', () => {
    const request = {
      TerminalKey: 'MerchantTerminalKey',
      Amount: 19200,
      OrderId: '21090',
      Description: 'Подарочная карта на 1000 рублей',
    };
    expect(tokenSource(request, 'usaf8fw8fsw21g')).toBe(
      '19200Подарочная карта на 1000 рублей21090usaf8fw8fsw21gMerchantTerminalKey',
    );
    expect(tbankToken(request, 'usaf8fw8fsw21g')).toBe(
      '0024a00af7c350a3a67ca168ce06502aa72772456662e38696d48b56ee9c97d9',
    );
  });

  it('leaves nested objects and the Token itself out of the signature', () => {
    const request = {
      TerminalKey: 'MerchantTerminalKey',
      Amount: 19200,
      OrderId: '21090',
      Description: 'Подарочная карта на 1000 рублей',
      DATA: { Email: 'a@example.com' },
      Receipt: { Taxation: 'osn', Items: [] },
      Token: 'whatever',
    };
    expect(tbankToken(request, 'usaf8fw8fsw21g')).toBe(
      '0024a00af7c350a3a67ca168ce06502aa72772456662e38696d48b56ee9c97d9',
    );
  });

  it('signs the GetState vector', () => {
    expect(
      tbankToken({ TerminalKey: 'TinkoffBankTest', PaymentId: '13660' }, 'TinkoffBankTest'),
    ).toBe('73aa2711ec980262a31b3ade1021827b5672195348e6cc70335ca081a010e4ed');
  });

  const notification = {
    TerminalKey: '1321054611234DEMO',
    OrderId: '201709',
    Success: true,
    Status: 'AUTHORIZED',
    PaymentId: 8742591,
    ErrorCode: '0',
    Amount: 9855,
    CardId: 322264,
    Pan: '430000******0777',
    ExpDate: '1122',
    RebillId: 101709,
    Token: 'b906d28e76c6428e37b25fcf86c0adc52c63d503013fdd632e300593d165766b',
  };

  it('verifies the official notification vector', () => {
    expect(tokenSource(notification, 'Dfsfh56dgKl')).toBe(
      '985532226401122201709430000******0777Dfsfh56dgKl8742591101709AUTHORIZEDtrue1321054611234DEMO',
    );
    expect(hasValidTbankToken(notification, 'Dfsfh56dgKl')).toBe(true);
  });

  it('verifies the official vector with nested DATA and Receipt added, as a RECEIPT carries them', () => {
    const withNested = {
      ...notification,
      DATA: { Source: 'cards' },
      Receipt: { Taxation: 'usn_income', Items: [{ Name: 'Пополнение баланса', Amount: 9855 }] },
    };
    expect(hasValidTbankToken(withNested, 'Dfsfh56dgKl')).toBe(true);
  });

  it('refuses a notification with a changed field, another password or no token', () => {
    expect(hasValidTbankToken({ ...notification, Amount: 9856 }, 'Dfsfh56dgKl')).toBe(false);
    expect(hasValidTbankToken(notification, 'another')).toBe(false);
    const { Token: _, ...unsigned } = notification;
    expect(hasValidTbankToken(unsigned, 'Dfsfh56dgKl')).toBe(false);
    expect(hasValidTbankToken({ ...notification, Token: 'short' }, 'Dfsfh56dgKl')).toBe(false);
  });

  it('adds the token to a request', () => {
    const signed = signTbankRequest(
      { TerminalKey: 'TinkoffBankTest', PaymentId: '13660' },
      'TinkoffBankTest',
    );
    expect(signed.Token).toBe('73aa2711ec980262a31b3ade1021827b5672195348e6cc70335ca081a010e4ed');
    expect(hasValidTbankToken(signed, 'TinkoffBankTest')).toBe(true);
  });
});
