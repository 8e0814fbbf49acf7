import { z } from 'zod';
import { answerStatusSchema } from './common';
import { YANDEX_SIGN_IN_CODE_REFUSED } from './messages';

/** `/auth/yandex/getUrl`: the Yandex ID authorize URL (DESIGN §3). */
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
});
export type YandexExchangeRequest = z.infer<typeof yandexExchangeRequestSchema>;

export const yandexExchangeAnswerSchema = z.object({ token: z.string(), userId: z.string() });
export type YandexExchangeAnswer = z.infer<typeof yandexExchangeAnswerSchema>;
