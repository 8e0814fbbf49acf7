/**
 * Yandex ID returns the browser to /oauth with its answer in the URL fragment, which never
 * reaches a server; the callback on the API host needs it as a query string.
 */
export function yandexCallbackUrl(apiBaseUrl: string, fragment: string): string {
  const query = new URLSearchParams(fragment.replace(/^#/, '')).toString();
  const callback = `${apiBaseUrl}/auth/yandex/callback`;
  return query ? `${callback}?${query}` : callback;
}
