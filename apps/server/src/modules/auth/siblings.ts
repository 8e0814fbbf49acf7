/**
 * The brand's sibling sites, known by two things that must agree: the name of their API key in
 * SIBLING_API_KEYS (`hosting:<key>`, `launcher:<key>`) and the origin of their URL setting
 * (HOSTING_URL, LAUNCHER_URL). The key proves who calls server to server; the origin is where
 * hand-off codes are sent and what a session handed to the site records
 * (docs/decisions/0010-sibling-sites-and-their-sessions.md).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_INVALID,
  SITE_HOSTING,
  SITE_LAUNCHER,
  SITE_PORTAL,
} from '@portal/contracts/messages';
import type { FastifyRequest } from 'fastify';
import { limitFailures } from '../../adapters/rate-limit.js';
import type { Config } from '../../config.js';
import { SIBLING_NAMES, type SiblingName } from '../../config.js';
import { unauthorized } from '../../http/app-error.js';

export interface Sibling {
  name: SiblingName;
  /** As URL.origin spells it. */
  origin: string;
}

const SIBLING_SITE_NAMES: Record<SiblingName, string> = {
  hosting: SITE_HOSTING,
  launcher: SITE_LAUNCHER,
};

type SiblingConfig = Pick<Config, 'SIBLING_API_KEYS' | 'HOSTING_URL' | 'LAUNCHER_URL'>;

/** Each sibling at the origin of its URL setting. */
export function siblingSites(config: Omit<SiblingConfig, 'SIBLING_API_KEYS'>): Sibling[] {
  const urls: Record<SiblingName, string> = {
    hosting: config.HOSTING_URL,
    launcher: config.LAUNCHER_URL,
  };
  return SIBLING_NAMES.map((name) => ({ name, origin: new URL(urls[name]).origin }));
}

/**
 * The site a session belongs to, as the devices list names it: the portal itself for its own
 * sessions (no origin), a sibling by its name, any other origin by its host.
 */
export function siteName(
  config: Omit<SiblingConfig, 'SIBLING_API_KEYS'>,
  origin: string | null,
): string {
  if (origin === null) return SITE_PORTAL;
  const sibling = siblingSites(config).find((site) => site.origin === origin);
  if (sibling) return SIBLING_SITE_NAMES[sibling.name];
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export type SiblingKeys = ReturnType<typeof siblingKeys>;

/** SIBLING_API_KEYS as sibling and key digest; digests compare in constant time. */
export function siblingKeys(config: SiblingConfig) {
  const sites = siblingSites(config);
  return config.SIBLING_API_KEYS.map((item) => {
    const colon = item.indexOf(':');
    const name = item.slice(0, colon);
    const sibling = sites.find((site) => site.name === name);
    // config.ts lets only the names of SIBLING_NAMES through.
    if (!sibling) throw new Error(`SIBLING_API_KEYS: неизвестный сайт «${name}»`);
    return { sibling, digest: digest(item.slice(colon + 1)) };
  });
}

/** Wrong keys per source address before it is refused outright. */
const WRONG_KEY_RATE = { limit: 20, windowMs: 10 * 60_000 };

/** The sibling whose key the request carries; 401 for none or a wrong one, 429 after many. */
export async function checkSiblingKey(request: FastifyRequest, keys: SiblingKeys) {
  const limiter = request.server.deps.rateLimiter;
  const failureKey = `sibling-key-fail:${request.ip}`;
  return limitFailures(limiter, failureKey, WRONG_KEY_RATE, async () => {
    const header = request.headers['x-api-key'];
    const given = typeof header === 'string' ? digest(header) : null;
    const found = given && keys.find((key) => timingSafeEqual(key.digest, given));
    if (!found) throw unauthorized(API_KEY_INVALID);
    return found.sibling;
  });
}

const siblingByRequest = new WeakMap<FastifyRequest, Sibling>();

/**
 * preHandler of the server-to-server API: the `X-Api-Key` header must be one of the configured
 * sibling keys. A user's bearer token is never accepted here.
 */
export function requireSiblingKey(keys: SiblingKeys) {
  return async (request: FastifyRequest) => {
    siblingByRequest.set(request, await checkSiblingKey(request, keys));
  };
}

/** The sibling whose key a request that passed `requireSiblingKey` carried. */
export function siblingOf(request: FastifyRequest): Sibling {
  const sibling = siblingByRequest.get(request);
  if (!sibling) throw unauthorized(API_KEY_INVALID);
  return sibling;
}
