import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.js';

/**
 * CSP to our own origin (plus the payment provider), no framing, no referrers.
 * Helmet words the headers; they do not depend on the request, so they are worked out once here
 * (@fastify/helmet rebuilt them on every request: a seventh of a cheap request's time).
 */
export function securityHeaders(config: Config): Record<string, string> {
  const isHttps = config.PUBLIC_URL.startsWith('https://');
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
  };
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Avatars in S3-compatible storage are read from its public address.
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.S3_PUBLIC_URL ? [new URL(config.S3_PUBLIC_URL).origin] : []),
        ],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'", new URL(config.TBANK_API_URL).origin],
        frameAncestors: ["'none'"],
        // The web app needs no <base>; an injected one could re-point every relative URL.
        baseUri: ["'none'"],
        objectSrc: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: isHttps ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * What an API answer (JSON) or a file that is not a page (script, style, image) carries: it is
 * never rendered as a page, so its policy forbids everything (OWASP's advice for REST answers;
 * an SVG opened on its own runs nothing), and the headers meant for pages are left off. Short on
 * purpose: every byte is on every answer of the hot reads and on each of the files a page loads.
 */
function apiHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
  };
  const hsts = pageHeaders['strict-transport-security'];
  if (hsts) headers['strict-transport-security'] = hsts;
  return headers;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's answer hands out a session token (sign-in calls): never kept by a cache. */
    answersToken?: boolean;
  }
}

/**
 * An answer meant for one person only: the request proved who it is (a bearer token, a sibling
 * site's key), or the route hands out a session token. Shared and browser caches must not keep
 * it, or the next user of the machine or proxy could read it.
 */
function isPersonal(request: FastifyRequest): boolean {
  return (
    request.headers.authorization !== undefined ||
    request.headers['x-api-key'] !== undefined ||
    request.routeOptions.config.answersToken === true
  );
}

/**
 * Every answer (pages, files, API answers, errors, 404s) carries the security headers: an HTML
 * page the full set, anything else the short one.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const forPages = securityHeaders(config);
  const forOthers = apiHeaders(forPages);
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    const headers = typeof type === 'string' && type.startsWith('text/html') ? forPages : forOthers;
    // A page that words its own policy (the sandbox checkout) keeps it.
    for (const name in headers) if (!reply.hasHeader(name)) reply.header(name, headers[name]);
    if (isPersonal(request)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
