import type { FastifyInstance } from 'fastify';
import type * as client from 'openid-client';

/** The issuer the test portal is configured with (testConfig's PUBLIC_URL). */
export const OIDC_ISSUER = 'http://portal.test';

/** The browser's own name, as the devices list describes it. */
export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** openid-client's requests, answered by `app.inject` (the issuer is not on the network). */
export function injectFetch(app: FastifyInstance): client.CustomFetch {
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

/**
 * A browser played by hand, with its user agent: follows nothing by itself, keeps the cookies it
 * is given. A body is sent as it is, or as a form when given as fields.
 */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly userAgent = FIREFOX,
  ) {}

  async request(
    method: 'GET' | 'POST',
    url: string | URL,
    headers: Record<string, string> = {},
    body?: string | Record<string, string>,
  ) {
    const target = new URL(url, OIDC_ISSUER);
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const isForm = typeof body === 'object';
    const response = await this.app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      headers: {
        'user-agent': this.userAgent,
        ...headers,
        ...(cookie ? { cookie } : {}),
        ...(isForm ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body === undefined
        ? {}
        : { payload: isForm ? new URLSearchParams(body).toString() : body }),
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
