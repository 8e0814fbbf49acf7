import type { FastifyInstance } from 'fastify';
import type { FetchLike } from '../../src/adapters/tbank/client.js';

/**
 * A fetch that never leaves the process: the request goes to `app.inject`. Tests give it to
 * `buildApp` as `paymentFetch`, so the provider's calls and the sandbox's notifications come back
 * into the app under test.
 */
export function injectFetch(getApp: () => FastifyInstance): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    const response = await getApp().inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${target.pathname}${target.search}`,
      headers,
      payload: typeof init.body === 'string' ? init.body : undefined,
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined) responseHeaders.set(key, String(value));
    }
    const hasBody = ![204, 304].includes(response.statusCode);
    return new Response(hasBody ? response.rawPayload : null, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}
