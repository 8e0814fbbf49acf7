/**
 * Counters for rate limits that must hold across requests (and, with Redis, across processes):
 * per source address login failures, registrations, code checks. The counting is the library
 * rate-limiter-flexible's (docs/decisions/0040-rate-limits-on-rate-limiter-flexible.md); this
 * file only says how the portal uses it.
 *
 * API (`app.deps.rateLimiter`):
 *
 *   await enforceLimit(limiter, key, { limit, windowMs });          // count; 429 once over `limit`
 *   await limitFailures(limiter, key, rule, check);                 // the same, and a success
 *                                                                   // is taken back
 *   const { count, resetInMs } = await limiter.hit(key, rule);      // count, answer the total
 *   await limiter.refund(key, rule);                                // take one back
 *
 * Every limit counts the request BEFORE anything is checked (the library's `consume`): a limit
 * that is read first and counted after the failure lets a burst of parallel requests through
 * before the first failure lands.
 *
 * A window is fixed: it starts at the key's first hit and lasts `windowMs` (whole seconds: Redis
 * expires keys by the second); `count` is the hits in it. Keys are free text; prefix them with
 * what they count ('login-fail:ip:…').
 *
 * With a Redis connection (REDIS_URL) every process counts in Redis, and while Redis is down in
 * its own memory instead (the library's `insuranceLimiter`): a limit still holds, only per
 * process, and a request never waits for Redis (adapters/redis.ts refuses at once while it is
 * down). Counts do not move between the two: after an outage Redis's counts go on where they
 * were, and a refund that lands on the other side than its hit takes one back there, or nothing.
 * Without Redis the counts are this process's alone, as the README promises for an unset
 * REDIS_URL.
 *
 * Windows keep the wall clock's time (`Date`; the library takes no clock) in memory, and Redis's
 * own time there: tests that move the app's clock past a window move `Date` with it
 * (test/support/date-clock.ts).
 */
import { TOO_MANY_ATTEMPTS } from '@portal/contracts/messages';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { AppError } from '../http/app-error.js';
import type { RedisConnection } from './redis.js';

export interface RateCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetInMs: number;
}

export interface LimitRule {
  limit: number;
  windowMs: number;
}

/** Keys in Redis are `portal:rate:<key>`, as they always were. */
const KEY_PREFIX = 'portal:rate';

export class RateLimiter {
  /** One library limiter per rule: a limiter has one number of points and one duration. */
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  private readonly memories: RateLimiterMemory[] = [];

  constructor(
    private readonly redis: RedisConnection | null,
    private readonly keyPrefix = KEY_PREFIX,
  ) {}

  /** Counts one hit under `rule`, over the limit or not, and answers the count in the window. */
  async hit(key: string, rule: LimitRule): Promise<RateCount> {
    const limiter = this.limiterFor(rule);
    const res = await limiter.consume(key).catch((refused: unknown) => {
      // Over the limit the library rejects with the count; anything else is a real failure.
      if (refused instanceof RateLimiterRes) return refused;
      throw refused;
    });
    return { count: res.consumedPoints, resetInMs: Math.max(0, res.msBeforeNext) };
  }

  /** Takes one hit back: never below zero, and never starts a window, for limits on failures. */
  async refund(key: string, rule: LimitRule): Promise<void> {
    const limiter = this.limiterFor(rule);
    const { consumedPoints } = await limiter.reward(key);
    // The library's reward goes below zero, and opens a window for a key that has none: such a
    // count is no count. Of several refunds too many, each one that lands below zero deletes.
    if (consumedPoints < 0) await limiter.delete(key);
  }

  /** Forgets what this process counts in memory (Redis's counts stay, they are shared). */
  async close(): Promise<void> {
    for (const memory of this.memories) {
      for (const { key } of memory.dump().storage) await memory.delete(key);
    }
  }

  private limiterFor(rule: LimitRule): RateLimiterAbstract {
    const name = `${rule.limit}/${rule.windowMs}`;
    let limiter = this.limiters.get(name);
    if (!limiter) {
      limiter = this.createLimiter(rule);
      this.limiters.set(name, limiter);
    }
    return limiter;
  }

  private createLimiter({ limit, windowMs }: LimitRule): RateLimiterAbstract {
    const duration = windowMs / 1000;
    if (!Number.isInteger(duration) || duration < 1) {
      throw new Error(`A rate-limit window is whole seconds, not ${windowMs} ms`);
    }
    const options = { points: limit, duration, keyPrefix: this.keyPrefix };
    const memory = new RateLimiterMemory(options);
    this.memories.push(memory);
    if (!this.redis) return memory;
    return new RateLimiterRedis({
      ...options,
      storeClient: this.redis.asClient(),
      insuranceLimiter: memory,
    });
  }
}

export function tooManyRequests(resetInMs: number, message = TOO_MANY_ATTEMPTS): AppError {
  return new AppError('too_many_requests', message, {
    retryAfter: Math.max(1, Math.ceil(resetInMs / 1000)),
  });
}

/** Counts one request and refuses it with 429 (and Retry-After) once the window is over `limit`. */
export async function enforceLimit(
  limiter: RateLimiter,
  key: string,
  rule: LimitRule,
): Promise<void> {
  const { count, resetInMs } = await limiter.hit(key, rule);
  if (count > rule.limit) throw tooManyRequests(resetInMs);
}

/**
 * A limit on failures: counts the attempt first (429 once over `limit`, and `check` never runs),
 * then takes it back when `check` succeeds. A throwing `check` is a failure and stays counted.
 */
export async function limitFailures<T>(
  limiter: RateLimiter,
  key: string,
  rule: LimitRule,
  check: () => Promise<T>,
): Promise<T> {
  await enforceLimit(limiter, key, rule);
  const result = await check();
  await limiter.refund(key, rule);
  return result;
}
