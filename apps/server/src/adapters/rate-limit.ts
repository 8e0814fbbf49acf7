/**
 * Counters for rate limits that must hold across requests (and, with Redis, across processes):
 * per source address login failures, registrations, code checks.
 *
 * API (`app.deps.rateLimiter`):
 *
 *   const { count, resetInMs } = await limiter.hit(key, windowMs);  // add one, answer the total
 *   await limiter.refund(key);                                      // take one back
 *   await limiter.reset(key);
 *   await enforceLimit(limiter, key, { limit, windowMs });          // hit; 429 once over `limit`
 *   await limitFailures(limiter, key, rule, check);                 // the same, and a success
 *                                                                   // is taken back
 *
 * Every limit counts the request BEFORE anything is checked: a limit that is read first and
 * counted after the failure lets a burst of parallel requests through before the first failure
 * lands.
 *
 * A window is fixed: it starts at the key's first hit and lasts `windowMs`; `count` is the hits
 * in it. Keys are free text; prefix them with what they count ('login-fail:ip:…').
 * `createRateLimiter(redis, clock)` picks Redis when REDIS_URL is set, memory otherwise; with
 * Redis down the limits count per process meanwhile (adapters/rate-limit-redis.ts).
 */
import { TOO_MANY_ATTEMPTS } from '@portal/contracts/messages';
import { AppError } from '../http/app-error.js';
import type { Clock } from './clock.js';

export interface RateCount {
  /** Hits in the current window (0 when there is none). */
  count: number;
  /** Milliseconds until the window ends (0 when there is none). */
  resetInMs: number;
}

export interface RateLimiter {
  hit(key: string, windowMs: number): Promise<RateCount>;
  /** Takes one hit back (never below zero), for limits that count only failures. */
  refund(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface LimitRule {
  limit: number;
  windowMs: number;
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
  const { count, resetInMs } = await limiter.hit(key, rule.windowMs);
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
  await limiter.refund(key);
  return result;
}

/** One process only: the counters live in this Map. Time comes from the app clock. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private hitsSinceSweep = 0;

  constructor(private readonly clock: Clock) {}

  private live(key: string, now: number) {
    const window = this.windows.get(key);
    if (window && window.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  async hit(key: string, windowMs: number): Promise<RateCount> {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let window = this.live(key, now);
    if (!window) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  async refund(key: string): Promise<void> {
    const window = this.live(key, this.clock.now().getTime());
    if (window && window.count > 0) window.count -= 1;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  /** Drops ended windows now and then, so a flood of one-off keys cannot grow the Map forever. */
  private sweep(now: number) {
    if (++this.hitsSinceSweep < 1000) return;
    this.hitsSinceSweep = 0;
    for (const [key, window] of this.windows) {
      if (window.endsAt <= now) this.windows.delete(key);
    }
  }
}
