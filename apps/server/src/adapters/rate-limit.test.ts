import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL } from '../../test/support/services.js';
import { waitFor } from '../../test/support/wait-for.js';
import { AppError } from '../http/app-error.js';
import { ManualClock } from './clock.js';
import { createRateLimiter } from './create-rate-limiter.js';
import { enforceLimit, limitFailures, MemoryRateLimiter, type RateLimiter } from './rate-limit.js';
import { RedisRateLimiter } from './rate-limit-redis.js';
import { RedisConnection } from './redis.js';

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** The same contract for every implementation; `windowEnds` returns once a key's window is over. */
function contract(
  name: string,
  make: () => Promise<{
    limiter: RateLimiter;
    windowEnds(key: string, windowMs: number): Promise<void>;
  }>,
) {
  describe(name, () => {
    let limiter: RateLimiter;
    let windowEnds: (key: string, windowMs: number) => Promise<void>;
    const key = () => `test:${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      ({ limiter, windowEnds } = await make());
    });
    afterAll(async () => {
      await limiter.close();
    });

    it('counts hits in a window and tells when it ends', async () => {
      const k = key();
      expect((await limiter.hit(k, 60_000)).count).toBe(1);
      const second = await limiter.hit(k, 60_000);
      expect(second.count).toBe(2);
      expect(second.resetInMs).toBeGreaterThan(55_000);
      expect(second.resetInMs).toBeLessThanOrEqual(60_000);
    });

    it('starts over when the window ends', async () => {
      const k = key();
      await limiter.hit(k, 300);
      await limiter.hit(k, 300);
      await windowEnds(k, 300);
      expect((await limiter.hit(k, 300)).count).toBe(1);
    });

    it('keeps keys apart and forgets a reset key', async () => {
      const a = key();
      const b = key();
      await limiter.hit(a, 60_000);
      await limiter.hit(a, 60_000);
      expect((await limiter.hit(b, 60_000)).count).toBe(1);
      await limiter.reset(a);
      expect((await limiter.hit(a, 60_000)).count).toBe(1);
    });

    it('takes a hit back, never below zero, and never makes a window', async () => {
      const k = key();
      await limiter.refund(k);
      expect((await limiter.hit(k, 60_000)).count).toBe(1);
      await limiter.hit(k, 60_000);
      await limiter.refund(k);
      await limiter.refund(k);
      await limiter.refund(k);
      expect((await limiter.hit(k, 60_000)).count).toBe(1);
    });

    it('checks at most `limit` of 100 parallel failing attempts, and gives successes back', async () => {
      const k = key();
      const rule = { limit: 7, windowMs: 60_000 };
      let checks = 0;
      const failing = async () => {
        checks += 1;
        throw new Error('wrong secret');
      };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 100 }, () => limitFailures(limiter, k, rule, failing)),
      );
      expect(checks).toBe(7);
      const refused = outcomes.filter(
        (outcome) => outcome.status === 'rejected' && outcome.reason instanceof AppError,
      );
      expect(refused).toHaveLength(93);

      const fresh = key();
      for (let i = 0; i < 20; i++) {
        expect(await limitFailures(limiter, fresh, rule, async () => 'right')).toBe('right');
      }
    });

    it('refuses over the limit with 429 and Retry-After', async () => {
      const k = key();
      const rule = { limit: 2, windowMs: 60_000 };
      await enforceLimit(limiter, k, rule);
      await enforceLimit(limiter, k, rule);
      const refused = await enforceLimit(limiter, k, rule).catch((error) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused.statusCode).toBe(429);
      expect(refused.details.retryAfter).toBeGreaterThan(55);
    });
  });
}

contract('memory rate limiter', async () => {
  const clock = new ManualClock();
  return {
    limiter: new MemoryRateLimiter(clock),
    windowEnds: async (_key, windowMs) => clock.advance(windowMs),
  };
});

const hasRedis = await redisReachable();
if (!hasRedis)
  console.warn(`Redis at ${REDIS_URL} not reachable: Redis rate-limiter tests skipped`);

/** A connection that is up (it starts down until its first PING answers). */
async function connectedRedis(url = REDIS_URL) {
  const redis = new RedisConnection(url);
  await waitFor('Redis to answer', () => redis.isUp(), { timeoutMs: 5_000, intervalMs: 10 });
  return redis;
}

describe.runIf(hasRedis)('with Redis', () => {
  let redis: RedisConnection;
  beforeAll(async () => {
    redis = await connectedRedis();
  });
  afterAll(() => redis.close());

  contract('redis rate limiter', async () => {
    const prefix = `portal-test:${randomBytes(4).toString('hex')}:`;
    return {
      limiter: new RedisRateLimiter(redis, new ManualClock(), prefix),
      // Redis ends a window by its own clock: the key is gone then.
      windowEnds: async (key) => {
        await waitFor(
          'the window to end',
          async () => (await redis.run((client) => client.exists(prefix + key))) === 0,
        );
      },
    };
  });

  it('is chosen when the process has a Redis connection', async () => {
    const limiter = createRateLimiter(redis, new ManualClock());
    expect(limiter).toBeInstanceOf(RedisRateLimiter);
    await limiter.close();
  });

  it('shares counters between processes (two connections)', async () => {
    const prefix = `portal-test:${randomBytes(4).toString('hex')}:`;
    const other = await connectedRedis();
    const one = new RedisRateLimiter(redis, new ManualClock(), prefix);
    const two = new RedisRateLimiter(other, new ManualClock(), prefix);
    await one.hit('shared', 60_000);
    expect((await two.hit('shared', 60_000)).count).toBe(2);
    await other.close();
  });
});

describe('redis rate limiter without Redis', () => {
  it('counts in memory meanwhile, at once, with the same rules', async () => {
    const redis = new RedisConnection('redis://127.0.0.1:1');
    const limiter = new RedisRateLimiter(redis, new ManualClock());
    const startedAt = performance.now();
    expect(await limiter.hit('k', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    expect((await limiter.hit('k', 60_000)).count).toBe(2);
    await limiter.refund('k');
    expect((await limiter.hit('k', 60_000)).count).toBe(2);
    await limiter.reset('k');
    expect((await limiter.hit('k', 60_000)).count).toBe(1);
    expect(performance.now() - startedAt).toBeLessThan(100);
    await redis.close();
  });
});

it('memory is the default without REDIS_URL', async () => {
  expect(createRateLimiter(null, new ManualClock())).toBeInstanceOf(MemoryRateLimiter);
});
