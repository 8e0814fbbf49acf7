import { z } from 'zod';

/** The part of login.yandex.ru/info we use (yandex.ru/dev/id/doc/ru/user-information). */
const yandexProfileSchema = z.object({
  id: z.string().min(1),
  login: z.string().default(''),
  client_id: z.string().optional(),
  default_email: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  display_name: z.string().optional(),
});
export type YandexProfile = z.infer<typeof yandexProfileSchema>;

export class YandexUnavailable extends Error {}

/** Reads the profile behind an access token; the token goes in a header, never in the URL. */
export async function fetchYandexProfile(
  userInfoUrl: string,
  accessToken: string,
  fetchImpl: typeof fetch = fetch,
): Promise<YandexProfile> {
  const url = new URL(userInfoUrl);
  url.searchParams.set('format', 'json');
  let response: Response;
  try {
    response = await fetchImpl(url, {
      headers: { Authorization: `OAuth ${accessToken}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(10_000),
      redirect: 'error',
    });
  } catch (error) {
    throw new YandexUnavailable(`user-info request failed: ${(error as Error).message}`);
  }
  if (!response.ok) throw new YandexUnavailable(`user-info answered ${response.status}`);
  const parsed = yandexProfileSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new YandexUnavailable('user-info answered an unexpected body');
  return parsed.data;
}
