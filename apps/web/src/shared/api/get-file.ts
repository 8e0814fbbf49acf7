import type { HttpClient } from './http';

/**
 * A file the server answers to a signed-in GET (the session's token rides along, which a plain
 * link could not carry), with the name its `Content-Disposition` gives (`fallbackName` without
 * one). A refusal arrives as a Blob too: it is read back into the JSON `toApiFailure` understands.
 */
export async function getFile(
  client: HttpClient,
  url: string,
  { params, fallbackName }: { params?: Record<string, unknown>; fallbackName: string },
): Promise<{ file: Blob; fileName: string }> {
  const response = await client
    .get<Blob>(url, { params, responseType: 'blob', requiresAuth: true })
    .catch(async (error: { response?: { data?: unknown } }) => {
      const data = error.response?.data;
      if (error.response && data instanceof Blob) {
        error.response.data = JSON.parse(await data.text()) as unknown;
      }
      throw error;
    });
  const disposition = String(response.headers['content-disposition'] ?? '');
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? fallbackName;
  return { file: response.data, fileName };
}
