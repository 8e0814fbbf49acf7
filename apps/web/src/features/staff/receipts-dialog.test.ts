import type { ReceiptAnswer } from '@portal/contracts/wallet';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { NO_RECEIPTS, ReceiptList } from './receipts-dialog';

// The receipts dialog's list as markup (no DOM here: vitest.config.ts); the dialog around it
// is Radix's, checked in the browser by the staff e2e tests.

const income: ReceiptAnswer = {
  id: '11111111-1111-4111-8111-111111111111',
  type: 'income',
  seller: 'GameHost',
  issuedAt: '2026-11-25T11:05:00.000Z',
  itemName: 'Пополнение баланса',
  amount: 1000,
  vat: 'none',
  taxation: 'usn_income',
  fnNumber: '7380440700076549',
  fiscalDocumentNumber: 31,
  fiscalDocumentAttribute: 2_715_465_914,
  fiscalNumber: 4,
  shiftNumber: 12,
  ecrRegNumber: '0000000001002292',
  qrText: 't=20261125T1405&s=1000.00&fn=7380440700076549&i=31&fp=2715465914&n=1',
  qrCode: 'iVBORw0KGgo=',
  checkUrl: 'https://kkt-online.nalog.ru/',
};
const refund: ReceiptAnswer = {
  ...income,
  id: '22222222-2222-4222-8222-222222222222',
  type: 'refund',
  amount: 250.5,
  fiscalDocumentNumber: 32,
  qrText: 't=20261125T1505&s=250.50&fn=7380440700076549&i=32&fp=2715465914&n=2',
};

const render = (receipts: ReceiptAnswer[]) =>
  renderToStaticMarkup(createElement(ReceiptList, { receipts }));
/** The markup's text, tags dropped and spaces (also the non-breaking ones) made one. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/[\s\u00a0\u202f]+/g, ' ')
    .trim();

describe("the staff's receipts dialog", () => {
  it('lists each receipt with its type, sum, date, fiscal numbers and the tax service link', () => {
    const html = render([income, refund]);
    const text = textOf(html);
    expect(html.match(/<li>/g)).toHaveLength(2);
    expect(text).toMatch(/Приход · 1 000,00 ₽/);
    expect(text).toMatch(/Возврат прихода · 250,50 ₽/);
    // The time is the viewer's clock (format-date.ts); the date is the same in every zone here.
    expect(text).toMatch(/Дата и время 25 ноября 2026 г\. в \d\d:05/);
    expect(text).toContain('ФН 7380440700076549');
    expect(text).toContain('ФД 31');
    expect(text).toContain('ФД 32');
    expect(text).toContain('ФП 2715465914');
    expect(html).toContain('href="https://kkt-online.nalog.ru/"');
    // Two receipts in one dialog: each heading its own id.
    expect(html).toContain(`id="receipt-${income.id}"`);
    expect(html).toContain(`id="receipt-${refund.id}"`);
    expect(html.match(/<h3 /g)).toHaveLength(2);
  });

  it('says so when the payment has no receipts yet', () => {
    expect(textOf(render([]))).toBe(NO_RECEIPTS);
  });
});
