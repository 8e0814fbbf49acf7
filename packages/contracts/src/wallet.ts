import { z } from 'zod';
import { answerStatusSchema, emailSchema, hasAtMostTwoDecimals, timestampSchema } from './common';
import {
  type OFFERED_PAYMENT_METHODS,
  RECEIPT_ITEM_QUANTITY,
  RECEIPT_ITEM_TAX,
  RECEIPT_TAXATION,
  TOP_UP_DESCRIPTION,
  TOP_UP_IS_RECURRENT,
} from './constants';
import { AMOUNT_NOT_POSITIVE, AMOUNT_REQUIRED, AMOUNT_TOO_PRECISE } from './messages';

// ---------------------------------------------------------------- payment methods

export const paymentMethodIdSchema = z.enum(['card', 'sbp', 'crypto', 'yaPay', 'yaSplit']);
export type PaymentMethodId = z.infer<typeof paymentMethodIdSchema>;

/** Titles are ours: the product names the methods but not their wording. */
export const PAYMENT_METHOD_TITLES: Record<PaymentMethodId, string> = {
  card: 'Банковская карта',
  sbp: 'СБП',
  crypto: 'Криптовалюта',
  yaPay: 'Яндекс Пэй',
  yaSplit: 'Яндекс Сплит',
};

export type OfferedPaymentMethod = (typeof OFFERED_PAYMENT_METHODS)[number];

// ---------------------------------------------------------------- top-up

/** Roubles, at most two decimals, above zero. The amount limits live on the server. */
export const paymentAmountSchema = z
  .number({ error: AMOUNT_REQUIRED })
  .positive(AMOUNT_NOT_POSITIVE)
  .refine(hasAtMostTwoDecimals, AMOUNT_TOO_PRECISE);

export const receiptItemSchema = z.object({
  name: z.string(),
  /** Roubles. */
  price: z.number(),
  quantity: z.number(),
  /** Roubles: price × quantity. */
  amount: z.number(),
  tax: z.string(),
});
export type ReceiptItem = z.infer<typeof receiptItemSchema>;

export const receiptSchema = z.object({
  email: z.string(),
  taxation: z.string(),
  items: z.array(receiptItemSchema),
});
export type Receipt = z.infer<typeof receiptSchema>;

/**
 * The payment payload clients send: userId, amount, description, receipt, email, isRecurrent.
 * The server only trusts `amount`: it takes the user from the session, builds the receipt
 * itself and ignores the rest, which the web app still sends in full.
 */
export const paymentRequestSchema = z.object({
  userId: z.string().optional(),
  amount: paymentAmountSchema,
  description: z.string().optional(),
  receipt: receiptSchema.optional(),
  email: emailSchema.optional(),
  isRecurrent: z.boolean().optional(),
});
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

/** The payload the top-up form sends, with the receipt: taxation osn, one item, tax none. */
export function buildTopUpPayment(input: {
  userId: string;
  email: string;
  amount: number;
}): PaymentRequest {
  return {
    userId: input.userId,
    amount: input.amount,
    description: TOP_UP_DESCRIPTION,
    email: input.email,
    isRecurrent: TOP_UP_IS_RECURRENT,
    receipt: {
      email: input.email,
      taxation: RECEIPT_TAXATION,
      items: [
        {
          name: TOP_UP_DESCRIPTION,
          price: input.amount,
          quantity: RECEIPT_ITEM_QUANTITY,
          amount: input.amount * RECEIPT_ITEM_QUANTITY,
          tax: RECEIPT_ITEM_TAX,
        },
      ],
    },
  };
}

/** `Payment/create` (card): redirect the browser to `data.paymentUrl`. */
export const cardPaymentAnswerSchema = z.object({
  status: answerStatusSchema,
  data: z.object({ paymentUrl: z.string() }),
  message: z.string(),
});
export type CardPaymentAnswer = z.infer<typeof cardPaymentAnswerSchema>;

/** `Payment/sbp/qr`: `data` is the address to redirect the browser to. */
export const sbpPaymentAnswerSchema = z.object({
  status: answerStatusSchema,
  data: z.string(),
  message: z.string(),
});
export type SbpPaymentAnswer = z.infer<typeof sbpPaymentAnswerSchema>;

/**
 * The top-up form: a number, default 500, the request's own rule (above zero, two decimals); no
 * client minimum or maximum (the server has them, and the form shows its answer under the field).
 */
export const topUpFormSchema = z.object({
  amount: paymentAmountSchema,
});
export type TopUpForm = z.infer<typeof topUpFormSchema>;

// ---------------------------------------------------------------- history

export const ledgerKindSchema = z.enum([
  'topUp',
  'refund',
  'purchase',
  'renewal',
  'cashback',
  'adjustment',
  // Support's correction of a balance (the operator's tool); its description is the reason.
  'correction',
]);
export type LedgerKind = z.infer<typeof ledgerKindSchema>;

export const historyDirectionSchema = z.enum(['accrual', 'writeOff']);
export type HistoryDirection = z.infer<typeof historyDirectionSchema>;
export const historyCurrencySchema = z.enum(['rub', 'points']);
export type HistoryCurrency = z.infer<typeof historyCurrencySchema>;

export const paymentHistoryItemSchema = z.object({
  id: z.string(),
  kind: ledgerKindSchema,
  direction: historyDirectionSchema,
  currency: historyCurrencySchema,
  /** Always positive; `direction` gives the sign. Roubles with two decimals, or whole points. */
  amount: z.number(),
  description: z.string(),
  /**
   * completed: a ledger entry. A top-up not credited: pending (its page may still be paid),
   * unfinished (never reached the payment page, or the page expired unpaid), failed (the bank
   * refused), canceled.
   */
  status: z.enum(['pending', 'completed', 'unfinished', 'failed', 'canceled']),
  createdAt: timestampSchema,
  /** Pending top-ups only: the moment their page stops accepting payment. */
  expiresAt: timestampSchema.optional(),
  /** Pending top-ups only: the payment page (card) or SBP link, to go back and pay. */
  continueUrl: z.url({ protocol: /^https?$/ }).optional(),
  /** A paid top-up or a refund whose fiscal receipt has arrived: `GET /payments/receipts/:id`. */
  receiptId: z.uuid().optional(),
});
export type PaymentHistoryItem = z.infer<typeof paymentHistoryItemSchema>;

/**
 * What the history says of a top-up not credited (ours: the product shows no history screen). A
 * pending one whose page has expired reads as unfinished.
 */
export const HISTORY_STATUS_TEXTS: Record<
  Exclude<PaymentHistoryItem['status'], 'completed'>,
  string
> = {
  pending: 'Ожидает оплаты',
  unfinished: 'Не завершён',
  failed: 'Не прошло',
  canceled: 'Отменено',
};

/** The link back to a pending top-up's payment page. */
export const CONTINUE_PAYMENT = 'Продолжить оплату';

/** Newest first; pass `nextCursor` back as `cursor` for the next page. */
export const paymentHistoryQuerySchema = z.object({
  cursor: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  /** Only accruals or only write-offs (the history screen's filter); both when absent. */
  direction: historyDirectionSchema.optional(),
  /** Only roubles or only points; both when absent. */
  currency: historyCurrencySchema.optional(),
});
export type PaymentHistoryQuery = z.infer<typeof paymentHistoryQuerySchema>;

/** A time zone the browser names (`Intl`), or the message when it is none. */
export const HISTORY_TIME_ZONE_UNKNOWN = 'Неизвестный часовой пояс';

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('ru-RU', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * The whole history as a CSV file, with the filters on screen. `timeZone` is the browser's (dates
 * in the file read as on screen); Moscow time when absent.
 */
export const paymentHistoryExportQuerySchema = z.object({
  direction: historyDirectionSchema.optional(),
  currency: historyCurrencySchema.optional(),
  timeZone: z.string().max(64).refine(isTimeZone, HISTORY_TIME_ZONE_UNKNOWN).optional(),
});
export type PaymentHistoryExportQuery = z.infer<typeof paymentHistoryExportQuerySchema>;

/** The history file's columns, in order. */
export const HISTORY_CSV_COLUMNS = ['Дата', 'Операция', 'Сумма', 'Валюта', 'Статус'] as const;
/** The status column of a ledger entry (the others say HISTORY_STATUS_TEXTS). */
export const HISTORY_COMPLETED_TEXT = 'Выполнено';
/** The currency column. */
export const HISTORY_CURRENCY_TEXTS: Record<HistoryCurrency, string> = {
  rub: 'руб.',
  points: 'баллы',
};
/** The button on the history page. */
export const HISTORY_DOWNLOAD_CSV = 'Скачать CSV';

export const paymentHistoryAnswerSchema = z.object({
  data: z.array(paymentHistoryItemSchema),
  nextCursor: z.string().nullable().optional(),
});
export type PaymentHistoryAnswer = z.infer<typeof paymentHistoryAnswerSchema>;

// ---------------------------------------------------------------- receipts

/** income: the top-up (приход); refund: its return (возврат прихода). */
export const receiptTypeSchema = z.enum(['income', 'refund']);
export type ReceiptType = z.infer<typeof receiptTypeSchema>;

/** One fiscal receipt as its page shows it (`GET /payments/receipts/:id`, the owner's only). */
export const receiptAnswerSchema = z.object({
  id: z.uuid(),
  type: receiptTypeSchema,
  /** The brand the portal sells under. */
  seller: z.string(),
  /** When the register printed it. */
  issuedAt: timestampSchema,
  itemName: z.string(),
  /** Roubles with two decimals. */
  amount: z.number(),
  /** The item's VAT code as sent to the register: none, vat0, vat20, … */
  vat: z.string(),
  /** The taxation system code: osn, usn_income, …; absent when the receipt did not say. */
  taxation: z.string().optional(),
  fnNumber: z.string(),
  fiscalDocumentNumber: z.number().int(),
  fiscalDocumentAttribute: z.number().int(),
  fiscalNumber: z.number().int().nullable(),
  shiftNumber: z.number().int().nullable(),
  ecrRegNumber: z.string(),
  /** What the QR code holds, in the tax service's format: `t=…&s=…&fn=…&i=…&fp=…&n=…`. */
  qrText: z.string(),
  /** The QR code of `qrText`: a PNG, base64. */
  qrCode: z.string(),
  /** The tax service's page where a receipt is checked by these numbers. */
  checkUrl: z.url(),
});
export type ReceiptAnswer = z.infer<typeof receiptAnswerSchema>;

/** The link from a history entry to its receipt. */
export const RECEIPT_LINK = 'Чек';

export const RECEIPT_TYPE_TEXTS: Record<ReceiptType, string> = {
  income: 'Приход',
  refund: 'Возврат прихода',
};

/** What a receipt prints for its VAT code. */
export const RECEIPT_VAT_TEXTS: Record<string, string> = {
  none: 'Без НДС',
  vat0: 'НДС 0%',
  vat5: 'НДС 5%',
  vat7: 'НДС 7%',
  vat10: 'НДС 10%',
  vat20: 'НДС 20%',
  vat105: 'НДС 5/105',
  vat107: 'НДС 7/107',
  vat110: 'НДС 10/110',
  vat120: 'НДС 20/120',
};

export const RECEIPT_TAXATION_TEXTS: Record<string, string> = {
  osn: 'ОСН',
  usn_income: 'УСН доход',
  usn_income_outcome: 'УСН доход − расход',
  esn: 'ЕСХН',
  patent: 'Патент',
};

/**
 * The string of a receipt's QR code in the tax service's format: date and time as printed
 * (`YYYYMMDDTHHMM`), the total with two decimals, the fiscal storage number, the document number,
 * its fiscal attribute, and 1 for income or 2 for its return.
 */
export function receiptQrText(input: {
  printedAt: string;
  amountKopecks: number;
  fnNumber: string;
  fiscalDocumentNumber: number;
  fiscalDocumentAttribute: number;
  type: ReceiptType;
}): string {
  const sum = (input.amountKopecks / 100).toFixed(2);
  return (
    `t=${input.printedAt}&s=${sum}&fn=${input.fnNumber}&i=${input.fiscalDocumentNumber}` +
    `&fp=${input.fiscalDocumentAttribute}&n=${input.type === 'income' ? 1 : 2}`
  );
}
