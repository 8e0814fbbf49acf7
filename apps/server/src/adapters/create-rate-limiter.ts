import type { Clock } from './clock.js';
import { MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { RedisRateLimiter } from './rate-limit-redis.js';
import type { RedisConnection } from './redis.js';

/** Redis when the process has a Redis connection (REDIS_URL), memory otherwise. */
export function createRateLimiter(redis: RedisConnection | null, clock: Clock): RateLimiter {
  if (!redis) return new MemoryRateLimiter(clock);
  return new RedisRateLimiter(redis, clock);
}
