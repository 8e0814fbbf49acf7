import type { TelegramCheckAnswer, TelegramLinkAnswer } from '@portal/contracts/telegram';
import { msApi } from '@/shared/api/http';

/** GET generate-telegram-link: a t.me link with a one-time token. */
export async function generateTelegramLink(): Promise<TelegramLinkAnswer> {
  const { data } = await msApi.get<TelegramLinkAnswer>(
    '/telegrambotms/api/Bot/generate-telegram-link',
    { requiresAuth: true },
  );
  return data;
}

/** GET check-telegram-user: whether Telegram is linked (a boolean, or a string saying one). */
export async function checkTelegramUser(signal?: AbortSignal): Promise<boolean> {
  const { data } = await msApi.get<TelegramCheckAnswer | string>(
    '/authms/api/Auth/users/check-telegram-user',
    { requiresAuth: true, signal },
  );
  return data === true || data === 'true';
}
