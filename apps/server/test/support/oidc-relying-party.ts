import type { FastifyInstance } from 'fastify';
import type * as client from 'openid-client';

/** The issuer the test portal is configured with (testConfig's PUBLIC_URL). */
export const OIDC_ISSUER = 'http://portal.test';

/** openid-client's requests, answered by `app.inject` (the issuer is not on the network). */
export function oidcInjectFetch(app: FastifyInstance): client.CustomFetch {
  return async (url, options) => {
    const target = new URL(url);
    const response = await app.inject({
      method: options.method as 'GET',
      url: `${target.pathname}${target.search}`,
      headers: options.headers,
      payload:
        options.body === undefined || options.body === null ? undefined : String(options.body),
    });
    const headers = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(key, String(value));
    }
    const hasBody = ![204, 304].includes(response.statusCode);
    return new Response(hasBody ? response.rawPayload : null, {
      status: response.statusCode,
      headers,
    });
  };
}

/** A browser played by hand: follows nothing by itself, keeps the cookies it is given. */
export class OidcBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly app: FastifyInstance) {}

  async request(
    method: 'GET' | 'POST',
    url: string | URL,
    headers: Record<string, string> = {},
    form?: Record<string, string>,
  ) {
    const target = new URL(url, OIDC_ISSUER);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      headers: {
        ...headers,
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    for (const { name, value } of response.cookies as { name: string; value: string }[]) {
      if (value) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    return response;
  }
}

/** The anti-forgery value of the form on a page the provider rendered. */
export function xsrfOnPage(html: string): string {
  const found = /name="xsrf" value="([^"]+)"/.exec(html);
  if (!found) throw new Error(`no xsrf field on the page:\n${html}`);
  return found[1]!;
}
