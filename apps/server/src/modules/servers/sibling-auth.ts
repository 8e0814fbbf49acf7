import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { limitFailures } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import { unauthorized } from '../../http/app-error.js';
import { API_KEY_INVALID } from './messages.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** SIBLING_API_KEYS (`name:key,…`) as name and key digest; digests compare in constant time. */
export function siblingKeys(config: Pick<Config, 'SIBLING_API_KEYS'>) {
  return config.SIBLING_API_KEYS.map((item) => {
    const colon = item.indexOf(':');
    return { name: item.slice(0, colon), digest: digest(item.slice(colon + 1)) };
  });
}

/** Wrong keys per source address before it is refused outright. */
const WRONG_KEY_RATE = { limit: 20, windowMs: 10 * 60_000 };

const siblingByRequest = new WeakMap<FastifyRequest, string>();

/**
 * preHandler of the server-to-server API: the `X-Api-Key` header must be one of the configured
 * sibling keys. A user's bearer token is never accepted here.
 */
export function requireSiblingKey(keys: ReturnType<typeof siblingKeys>) {
  return async (request: FastifyRequest) => {
    const limiter = request.server.deps.rateLimiter;
    const failureKey = `sibling-key-fail:${request.ip}`;
    const match = await limitFailures(limiter, failureKey, WRONG_KEY_RATE, async () => {
      const header = request.headers['x-api-key'];
      const given = typeof header === 'string' ? digest(header) : null;
      const found = given && keys.find((key) => timingSafeEqual(key.digest, given));
      if (!found) throw unauthorized(API_KEY_INVALID);
      return found;
    });
    siblingByRequest.set(request, match.name);
  };
}

/** The sibling whose key a request that passed `requireSiblingKey` carried. */
export function siblingOf(request: FastifyRequest): string {
  const name = siblingByRequest.get(request);
  if (!name) throw unauthorized(API_KEY_INVALID);
  return name;
}
