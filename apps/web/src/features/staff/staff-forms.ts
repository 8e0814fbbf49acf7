import { hasAtMostTwoDecimals } from '@portal/contracts/common';
import { AMOUNT_REQUIRED, AMOUNT_TOO_PRECISE } from '@portal/contracts/messages';
import {
  STAFF_ACCOUNT_ACTIONS,
  type StaffAccountAction,
  staffCorrectionRequestSchema,
  staffFactorResetRequestSchema,
  staffGrantRequestSchema,
  staffReasonRequestSchema,
  staffRefundRequestSchema,
} from '@portal/contracts/staff';
import { z } from 'zod';

const AMOUNT_NOT_NUMBER = 'Введите сумму числом, например 1500 или 99,90';

/** "1 500,50" as typed → 1500.5; anything else → NaN (the check below says what is wrong). */
function typedAmount(text: string): number {
  const normalised = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  return /^\d+(\.\d+)?$/.test(normalised) ? Number(normalised) : Number.NaN;
}

/** An amount as typed in a field, then checked by the contract's own rule for it. */
function typedAmountSchema(rule: z.ZodType<number, number>) {
  return z
    .string()
    .trim()
    .min(1, AMOUNT_REQUIRED)
    .transform(typedAmount)
    .refine((amount) => !Number.isNaN(amount), AMOUNT_NOT_NUMBER)
    .refine(hasAtMostTwoDecimals, AMOUNT_TOO_PRECISE)
    .pipe(rule);
}

/** The correction's form: the request without its key (the dialog adds the one of its opening). */
export const correctionFormSchema = staffCorrectionRequestSchema
  .omit({ idempotencyKey: true })
  .extend({ amount: typedAmountSchema(staffCorrectionRequestSchema.shape.amount) });
export type CorrectionForm = z.output<typeof correctionFormSchema>;

/** The refund's form: an empty amount refunds all of the payment. */
export const refundFormSchema = z.object({
  amount: z
    .string()
    .trim()
    .transform((text) => (text === '' ? undefined : text))
    .pipe(typedAmountSchema(staffRefundRequestSchema.shape.amount.unwrap()).optional()),
  reason: staffRefundRequestSchema.shape.reason,
});
export type RefundForm = z.output<typeof refundFormSchema>;

/**
 * Every staff change's form, by what it does: each checks the reason by staffReasonSchema (its
 * test holds every entry to it). The dialogs take their schema from here.
 */
export const STAFF_CHANGE_FORMS = {
  ...(Object.fromEntries(
    STAFF_ACCOUNT_ACTIONS.map((action) => [action, staffReasonRequestSchema]),
  ) as Record<StaffAccountAction, typeof staffReasonRequestSchema>),
  resendLetter: staffReasonRequestSchema,
  factorResetCode: staffReasonRequestSchema,
  factorReset: staffFactorResetRequestSchema,
  correction: correctionFormSchema,
  refund: refundFormSchema,
  reconcile: staffReasonRequestSchema,
  approve: staffReasonRequestSchema,
  decline: staffReasonRequestSchema,
  grant: staffGrantRequestSchema,
  revoke: staffReasonRequestSchema,
};
export type StaffChange = keyof typeof STAFF_CHANGE_FORMS;
