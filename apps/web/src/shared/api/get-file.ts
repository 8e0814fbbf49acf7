import type { HttpClient } from './http';

/**
 * A file the server answers to a signed-in GET (the session's token rides along, which a plain
 * link could not carry), with the name its `Content-Disposition` gives (`fallbackName` without
 * one). A refusal is read as JSON, as `toApiFailure` understands it.
 */
export async function getFile(
  client: HttpClient,
  url: string,
  { params, fallbackName }: { params?: Record<string, unknown>; fallbackName: string },
): Promise<{ file: Blob; fileName: string }> {
  const response = await client.get<Blob>(url, {
    params,
    responseType: 'blob',
    requiresAuth: true,
  });
  const disposition = response.headers['content-disposition'] ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  return { file: response.data, fileName };
}
