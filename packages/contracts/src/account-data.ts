import { z } from 'zod';
import { messageAnswerSchema, timestampSchema } from './common';

/**
 * «Скачать мои данные» and «Удалить аккаунт» (apps/server/src/modules/account-data,
 * docs/decisions/0030-export-and-deletion.md).
 */

/** Days between the request and the erasure; any sign-in or the letter's link cancels it. */
export const ACCOUNT_DELETION_DAYS = 7;

/** The state of the caller's deletion. */
export const deletionStatusAnswerSchema = z.object({
  /** When the account will be erased; null when no deletion waits. */
  dueAt: timestampSchema.nullable(),
  /** A sign-in cancelled a deletion and the owner has not been told on this site yet. */
  isCancelledBySignIn: z.boolean(),
});
export type DeletionStatusAnswer = z.infer<typeof deletionStatusAnswerSchema>;

export const deletionScheduledAnswerSchema = messageAnswerSchema.extend({ dueAt: timestampSchema });
export type DeletionScheduledAnswer = z.infer<typeof deletionScheduledAnswerSchema>;

/** The cancel link's token (43 base64url characters), posted by the page the letter opens. */
export const deletionCancelRequestSchema = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
});
export type DeletionCancelRequest = z.infer<typeof deletionCancelRequestSchema>;
