import type { Clock } from './clock.js';
import { MemoryRateLimiter, type RateCount, type RateLimiter } from './rate-limit.js';
import type { RedisConnection } from './redis.js';

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

/**
 * Counters shared by every server process (REDIS_URL). Time is Redis's own.
 *
 * While Redis is down (adapters/redis.ts: a failed command, then no command until a probe
 * answers) every limit counts in this process's memory instead, with the same rules: a limit
 * still holds, only per process, and a request never waits for Redis. Counts do not move
 * between the two: after an outage Redis's counts go on where they were, and a refund that lands
 * on the other side than its hit is lost (at worst one failure too many stays counted).
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly memory: MemoryRateLimiter;

  constructor(
    private readonly redis: RedisConnection,
    clock: Clock,
    private readonly prefix = 'portal:rate:',
  ) {
    this.memory = new MemoryRateLimiter(clock);
  }

  async hit(key: string, windowMs: number): Promise<RateCount> {
    try {
      const [count, ttl] = (await this.redis.run((client) =>
        client.eval(HIT_SCRIPT, 1, this.prefix + key, String(Math.max(1, Math.round(windowMs)))),
      )) as [number, number];
      return { count, resetInMs: Math.max(0, ttl) };
    } catch {
      return this.memory.hit(key, windowMs);
    }
  }

  async refund(key: string): Promise<void> {
    try {
      await this.redis.run((client) => client.eval(REFUND_SCRIPT, 1, this.prefix + key));
    } catch {
      await this.memory.refund(key);
    }
  }

  async reset(key: string): Promise<void> {
    await this.memory.reset(key);
    await this.redis.run((client) => client.del(this.prefix + key)).catch(() => {});
  }

  /** The connection belongs to the app, which closes it. */
  async close(): Promise<void> {
    await this.memory.close();
  }
}
