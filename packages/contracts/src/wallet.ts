import { z } from 'zod';
import { answerStatusSchema, emailSchema, hasAtMostTwoDecimals, timestampSchema } from './common';
import {
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

/** Titles are ours: the spec names the methods but not their wording. */
export const PAYMENT_METHOD_TITLES: Record<PaymentMethodId, string> = {
  card: 'Банковская карта',
  sbp: 'СБП',
  crypto: 'Криптовалюта',
  yaPay: 'Яндекс Пэй',
  yaSplit: 'Яндекс Сплит',
};

/** Only card and sbp are offered (spec §3). */
export const OFFERED_PAYMENT_METHODS = [
  'card',
  'sbp',
] as const satisfies readonly PaymentMethodId[];
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
 * The payment payload of spec §3. The server only trusts `amount`: it takes the
 * user from the session, builds the receipt itself and ignores the rest, which
 * the web app still sends as the spec describes.
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

/** The payload the top-up form sends, with the receipt of spec §9. */
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

/** The top-up form: a number, default 500, no client minimum or maximum (spec §5). */
export const topUpFormSchema = z.object({
  amount: z.number({ error: AMOUNT_REQUIRED }),
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
  status: z.enum(['pending', 'completed', 'failed', 'canceled']),
  createdAt: timestampSchema,
});
export type PaymentHistoryItem = z.infer<typeof paymentHistoryItemSchema>;

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

export const paymentHistoryAnswerSchema = z.object({
  data: z.array(paymentHistoryItemSchema),
  nextCursor: z.string().nullable().optional(),
});
export type PaymentHistoryAnswer = z.infer<typeof paymentHistoryAnswerSchema>;
