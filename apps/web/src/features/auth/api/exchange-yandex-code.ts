import type { YandexExchangeAnswer, YandexExchangeRequest } from '@portal/contracts/yandex';
import { api } from '@/shared/api/http';

/**
 * POST /auth/yandex/exchange (main base, like getUrl): the code of `/auth?yandexCode=` for a
 * session, or `requiresTwoFactor` until the account's second factor (its code, or the browser's
 * answer to `passkeyOptions`) is sent along. The browser sends the HttpOnly flow cookie that
 * getUrl set; same origin, so the request needs nothing more.
 */
export async function postYandexExchange(
  code: string,
  secondFactor: Omit<YandexExchangeRequest, 'code'> = {},
): Promise<YandexExchangeAnswer> {
  const { data } = await api.post<YandexExchangeAnswer>(
    '/auth/yandex/exchange',
    { code, ...secondFactor },
    { ownsSession: true },
  );
  return data;
}
