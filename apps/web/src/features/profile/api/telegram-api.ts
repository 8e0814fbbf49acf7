import type { TelegramCheckAnswer } from '@portal/contracts/telegram';
import { portalApi } from '@/shared/api/portal-api';

/** Whether Telegram is linked to the account; linking or unlinking it invalidates `Telegram`. */
export const telegramApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET check-telegram-user: a boolean, or a string saying one. */
    telegramLinked: build.query<boolean, void>({
      query: () => ({ url: '/authms/api/Auth/users/check-telegram-user' }),
      transformResponse: (answer: TelegramCheckAnswer | string) =>
        answer === true || answer === 'true',
      providesTags: ['Telegram'],
    }),
  }),
});

export const { useTelegramLinkedQuery } = telegramApi;
