/** Statuses whose answer has no body: a `Response` built with one would throw. */
const NO_BODY_STATUSES = new Set([204, 205, 304]);

type Upload = { url: string; method: string; headers: Headers; body: BodyInit | undefined };

/**
 * `fetch` for an upload that reports its progress, which fetch cannot: sent by XMLHttpRequest and
 * answered as a fetch `Response`, so `http.ts` reads both alike. Rejects as fetch does when no
 * answer came (the network, or `signal` aborted it). Loaded with the first upload (`http.ts`).
 */
export function uploadWithProgress(
  request: Upload,
  onProgress: (progress: { loaded: number; total: number }) => void,
  signal: AbortSignal | undefined,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(request.method, request.url);
    for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.total });
    xhr.onload = () => {
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const body = NO_BODY_STATUSES.has(xhr.status) ? null : xhr.responseText;
      resolve(new Response(body, { status: xhr.status, headers }));
    };
    xhr.onerror = xhr.onabort = () => reject(new TypeError('Failed to fetch'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send((request.body as XMLHttpRequestBodyInit | undefined) ?? null);
  });
}
