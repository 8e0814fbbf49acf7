import { z } from 'zod';
import {
  loginSecondFactorSchema,
  loginSuccessAnswerSchema,
  loginTwoFactorAnswerSchema,
} from './auth';
import { answerStatusSchema } from './common';
import { YANDEX_SIGN_IN_CODE_REFUSED } from './messages';
import { passkeyAssertionSchema } from './passkeys';

/** `/auth/yandex/getUrl`: the Yandex ID authorize URL (implicit flow, signed `state`). */
export const yandexUrlAnswerSchema = z.object({
  status: answerStatusSchema,
  data: z.object({ url: z.string() }),
});
export type YandexUrlAnswer = z.infer<typeof yandexUrlAnswerSchema>;

/**
 * `/auth/yandex/callback`: the implicit-flow fragment that the `/oauth` page
 * forwards as a query string. Yandex may also send `error` instead of a token;
 * unknown keys are dropped, not refused.
 */
export const yandexCallbackQuerySchema = z.object({
  access_token: z.string().optional(),
  token_type: z.string().optional(),
  expires_in: z.string().optional(),
  state: z.string().optional(),
  cid: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});
export type YandexCallbackQuery = z.infer<typeof yandexCallbackQuerySchema>;

/**
 * `/auth/yandex/exchange`: the one-time code the callback put in `/auth?yandexCode=`, exchanged
 * for a session by the browser that began the sign-in (its flow cookie goes along).
 */
export const yandexExchangeRequestSchema = z.object({
  code: z
    .string({ error: YANDEX_SIGN_IN_CODE_REFUSED })
    .trim()
    .min(1, YANDEX_SIGN_IN_CODE_REFUSED)
    .max(100, YANDEX_SIGN_IN_CODE_REFUSED),
  /** The account's second factor, once the exchange answered `requiresTwoFactor` (as login). */
  twoFactorCode: loginSecondFactorSchema.optional(),
  /** The browser's answer to the `passkeyOptions` of that answer, for a passkey step (as login). */
  passkey: passkeyAssertionSchema.optional(),
});
export type YandexExchangeRequest = z.infer<typeof yandexExchangeRequestSchema>;

/**
 * A session, or, for an account with a second factor, the login's `requiresTwoFactor` (with
 * `passkeyOptions` when the step is the account's passkey).
 */
export const yandexExchangeAnswerSchema = z.union([
  loginSuccessAnswerSchema,
  loginTwoFactorAnswerSchema,
]);
export type YandexExchangeAnswer = z.infer<typeof yandexExchangeAnswerSchema>;
