import { z } from 'zod';
import { answerStatusSchema } from './common';

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
