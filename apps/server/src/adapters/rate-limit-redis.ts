import { Redis } from 'ioredis';
import type { RateCount, RateLimiter } from './rate-limit.js';

// INCR and the expiry of a new window in one step, so a crash between them cannot leave a
// counter that never expires.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`;

// Never below zero, and never creates a key (nor touches the expiry of one).
const REFUND_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

const none: RateCount = { count: 0, resetInMs: 0 };

/**
 * Counters shared by every server process (REDIS_URL). Time is Redis's own.
 * With Redis unreachable the limiter fails open (counts nothing) and reports through `onError`:
 * these are per-address limits on top of the account lock, which lives in the database, and an
 * outage of Redis must not stop every sign-in.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly onError: (error: unknown) => void = () => {},
    private readonly prefix = 'portal:rate:',
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2_000 });
    this.redis.on('error', () => {});
  }

  async hit(key: string, windowMs: number): Promise<RateCount> {
    try {
      const [count, ttl] = (await this.redis.eval(
        HIT_SCRIPT,
        1,
        this.prefix + key,
        String(Math.max(1, Math.round(windowMs))),
      )) as [number, number];
      return { count, resetInMs: Math.max(0, ttl) };
    } catch (error) {
      this.onError(error);
      return none;
    }
  }

  async refund(key: string): Promise<void> {
    try {
      await this.redis.eval(REFUND_SCRIPT, 1, this.prefix + key);
    } catch (error) {
      this.onError(error);
    }
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
