import type { TelegramLinkAnswer } from '@portal/contracts/telegram';
import { msApi } from '@/shared/api/http';

/** GET generate-telegram-link: a t.me link with a one-time token. */
export async function generateTelegramLink(): Promise<TelegramLinkAnswer> {
  const { data } = await msApi.get<TelegramLinkAnswer>(
    '/telegrambotms/api/Bot/generate-telegram-link',
    { requiresAuth: true },
  );
  return data;
}
