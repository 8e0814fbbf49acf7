import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

const SECRET_QUERY_PARAMS = /([?&](?:token|code|access_token|state|link)=)[^&#]*/gi;

/** Paths that are themselves the key: the sandbox's checkout pages (adapters/tbank/sandbox). */
const SECRET_PATHS = /(\/sandbox\/tbank\/pay\/)[^/?#]+/g;

/** Request URLs may carry tokens (`/auth?token=…`, `/oauth` forwards): never log their values. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[скрыто]').replace(SECRET_PATHS, '$1[скрыто]');
}

export function loggerOptions(config: Config) {
  return {
    level: config.LOG_LEVEL,
    // Bodies are never logged; headers that carry secrets are cut out of what is.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
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
