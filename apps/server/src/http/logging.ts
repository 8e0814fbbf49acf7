import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

const HIDDEN = '[скрыто]';

/**
 * Names of query parameters and headers whose values are secrets: tokens and codes
 * (`/auth?token=…`, the `/oauth` forward), Yandex's `state`, hand-off `link`s, and API keys,
 * passwords or sessions a client put where they do not belong. A name containing one of these
 * words is enough; hiding a harmless value costs nothing.
 */
const SECRET_NAME =
  /token|code|state|link|key|pass|secret|auth|cookie|sign|session|otp|credential/i;

function isSecretName(name: string): boolean {
  try {
    return SECRET_NAME.test(decodeURIComponent(name));
  } catch {
    return SECRET_NAME.test(name);
  }
}

/** Paths that are themselves the key: the sandbox's checkout pages (adapters/tbank/sandbox). */
const SECRET_PATHS = /(\/sandbox\/tbank\/pay\/)[^/?#]+/g;

/** The URL with secret paths and the value of every secret-named query parameter hidden. */
export function redactUrl(fullUrl: string): string {
  const url = fullUrl.replace(SECRET_PATHS, `$1${HIDDEN}`);
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const nameEnd = pair.indexOf('=');
      if (nameEnd === -1 || !isSecretName(pair.slice(0, nameEnd))) return pair;
      return `${pair.slice(0, nameEnd)}=${HIDDEN}`;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** A copy of a header map with the value of every secret-named header hidden. */
function redactHeaders(headers: unknown): unknown {
  if (typeof headers !== 'object' || headers === null) return headers;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, isSecretName(name) ? HIDDEN : value]),
  );
}

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

export function loggerOptions(config: Config, stream?: LogStream) {
  return {
    level: config.LOG_LEVEL,
    stream,
    // Bodies and request headers are never logged. Header maps that do reach a log line (an
    // HTTP client's error carries the headers it sent or got) lose their secret values.
    redact: { paths: ['headers', '*.headers'], censor: redactHeaders },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}
