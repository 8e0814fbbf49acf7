import type { YandexUrlAnswer } from '@portal/contracts/yandex';
import { api } from '@/shared/api/http';

/**
 * GET /auth/yandex/getUrl (main base): the Yandex ID sign-in address. Sent with the token
 * when there is one, so a signed-in user links Yandex ID instead of signing in.
 */
export async function getYandexUrl(): Promise<string> {
  const { data } = await api.get<YandexUrlAnswer>('/auth/yandex/getUrl');
  return data.data.url;
}
