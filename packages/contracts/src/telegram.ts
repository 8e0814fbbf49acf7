import { z } from 'zod';

/** `generate-telegram-link`: a `t.me/<bot>?start=<one-time token>` link, opened in a new tab. */
export const telegramLinkAnswerSchema = z.object({ link: z.string() });
export type TelegramLinkAnswer = z.infer<typeof telegramLinkAnswerSchema>;

/** `check-telegram-user`: whether the user has linked Telegram (a plain boolean). */
export const telegramCheckAnswerSchema = z.boolean();
export type TelegramCheckAnswer = z.infer<typeof telegramCheckAnswerSchema>;
