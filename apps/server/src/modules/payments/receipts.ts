import { type ReceiptAnswer, receiptQrText } from '@portal/contracts/wallet';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db, Executor } from '../../db/database.js';
import { type PaymentRow, payments, type ReceiptRow, receipts } from './schema.js';
import { SettlementRefused } from './settlement.js';

const TYPES: Record<string, 'income' | 'refund'> = { Income: 'income', IncomeReturn: 'refund' };

const wholeNumber = (value: unknown): number | null => {
  const number = typeof value === 'string' && /^\d{1,18}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : null;
};

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null;

/**
 * A verified fiscalization notification (`Status: RECEIPT`): the fiscal document the provider's
 * register printed for a top-up (Type Income) or its refund (IncomeReturn), stored once per
 * document (its FnNumber and number), whatever the repeats. It never changes a balance.
 * Answers false for an unknown order; throws `SettlementRefused` for a body that does not
 * describe a receipt of this payment. A failed fiscalization, or another Type, is logged and
 * acknowledged: there is nothing to show.
 */
export async function recordReceipt(
  db: Db,
  payment: PaymentRow,
  body: Record<string, unknown>,
  log: FastifyBaseLogger,
): Promise<void> {
  if (payment.providerPaymentId && String(body.PaymentId) !== payment.providerPaymentId) {
    throw new SettlementRefused('payment_mismatch');
  }
  if (body.Success === false || (body.ErrorCode !== undefined && String(body.ErrorCode) !== '0')) {
    log.warn(
      { paymentId: payment.id, errorCode: body.ErrorCode, message: body.ErrorMessage },
      'the provider could not fiscalise a receipt',
    );
    return;
  }
  const type = typeof body.Type === 'string' ? TYPES[body.Type] : undefined;
  if (!type) {
    log.info({ paymentId: payment.id, type: body.Type }, 'receipt of another type acknowledged');
    return;
  }
  const amount = wholeNumber(body.Amount);
  const fnNumber = text(body.FnNumber);
  const documentNumber = wholeNumber(body.FiscalDocumentNumber);
  const attribute = wholeNumber(body.FiscalDocumentAttribute);
  const datetime =
    typeof body.ReceiptDatetime === 'string' ? Date.parse(body.ReceiptDatetime) : NaN;
  if (
    !amount ||
    amount > payment.amountKopecks ||
    !fnNumber ||
    documentNumber === null ||
    attribute === null ||
    Number.isNaN(datetime)
  ) {
    throw new SettlementRefused('amount_mismatch');
  }
  const receipt = (typeof body.Receipt === 'object' && body.Receipt) || {};
  const items = (receipt as { Items?: unknown }).Items;
  const first = (Array.isArray(items) ? items[0] : undefined) as
    | { Name?: unknown; Tax?: unknown }
    | undefined;
  await db
    .insert(receipts)
    .values({
      userId: payment.userId,
      paymentId: payment.id,
      type,
      amountKopecks: amount,
      itemName: text(first?.Name) ?? '',
      vat: text(first?.Tax) ?? 'none',
      fiscalNumber: wholeNumber(body.FiscalNumber),
      shiftNumber: wholeNumber(body.ShiftNumber),
      fnNumber,
      ecrRegNumber: text(body.EcrRegNumber) ?? '',
      fiscalDocumentNumber: documentNumber,
      fiscalDocumentAttribute: attribute,
      receiptDatetime: new Date(datetime),
      raw: body,
    })
    .onConflictDoNothing({ target: [receipts.fnNumber, receipts.fiscalDocumentNumber] });
}

/** The receipt `receiptId` of the user `userId`, or null (someone else's is as unknown). */
export async function findOwnReceipt(db: Db, userId: string, receiptId: string) {
  if (!UUID.test(receiptId)) return null;
  const [row] = await db
    .select()
    .from(receipts)
    .where(and(eq(receipts.id, receiptId), eq(receipts.userId, userId)));
  return row ?? null;
}

/**
 * Every receipt of the payment `paymentId` (the top-up's, each refund's), in the order the
 * register printed them: support's read (modules/staff), whose guard stands where the customer's
 * session stands in `findOwnReceipt`. Each is shown through `receiptView`, as the customer's.
 */
export function receiptsOfPayment(executor: Executor, paymentId: string): Promise<ReceiptRow[]> {
  return executor
    .select()
    .from(receipts)
    .where(eq(receipts.paymentId, paymentId))
    .orderBy(asc(receipts.receiptDatetime), asc(receipts.fiscalDocumentNumber));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const moscowMinute = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Moscow',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * The receipt's date and time as its register printed them, `YYYYMMDDTHHMM`: the wall clock of
 * the provider's ReceiptDatetime (it carries the register's offset), Moscow time when the stored
 * value has none.
 */
export function printedAt(row: Pick<ReceiptRow, 'raw' | 'receiptDatetime'>): string {
  const sent = (row.raw as { ReceiptDatetime?: unknown }).ReceiptDatetime;
  const match = typeof sent === 'string' ? /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)/.exec(sent) : null;
  if (match) return `${match[1]}${match[2]}${match[3]}T${match[4]}${match[5]}`;
  const moscow = moscowMinute.format(row.receiptDatetime); // 2026-11-25 14:05
  return `${moscow.slice(0, 10).replaceAll('-', '')}T${moscow.slice(11, 13)}${moscow.slice(14, 16)}`;
}

/** The receipt page's answer: the fiscal fields, the tax service's QR string and its image. */
export async function receiptView(
  config: Pick<Config, 'BRAND_NAME' | 'RECEIPT_CHECK_URL'>,
  row: ReceiptRow,
): Promise<ReceiptAnswer> {
  const qrText = receiptQrText({
    printedAt: printedAt(row),
    amountKopecks: row.amountKopecks,
    fnNumber: row.fnNumber,
    fiscalDocumentNumber: row.fiscalDocumentNumber,
    fiscalDocumentAttribute: row.fiscalDocumentAttribute,
    type: row.type,
  });
  // The library the authenticator's QR code is drawn with (two-factor-service.ts).
  const { default: QRCode } = await import('qrcode');
  const png = await QRCode.toBuffer(qrText, { type: 'png', errorCorrectionLevel: 'M', margin: 2 });
  const taxation = (row.raw as { Receipt?: { Taxation?: unknown } }).Receipt?.Taxation;
  return {
    id: row.id,
    type: row.type,
    seller: config.BRAND_NAME,
    issuedAt: row.receiptDatetime.toISOString(),
    itemName: row.itemName,
    amount: row.amountKopecks / 100,
    vat: row.vat,
    ...(typeof taxation === 'string' ? { taxation } : {}),
    fnNumber: row.fnNumber,
    fiscalDocumentNumber: row.fiscalDocumentNumber,
    fiscalDocumentAttribute: row.fiscalDocumentAttribute,
    fiscalNumber: row.fiscalNumber,
    shiftNumber: row.shiftNumber,
    ecrRegNumber: row.ecrRegNumber,
    qrText,
    qrCode: png.toString('base64'),
    checkUrl: config.RECEIPT_CHECK_URL,
  };
}

export async function findPayment(db: Db, paymentId: string) {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ?? null;
}
