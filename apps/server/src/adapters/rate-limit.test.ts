import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../http/app-error.js';
import { ManualClock } from './clock.js';
import {
  createRateLimiter,
  enforceLimit,
  limitFailures,
  MemoryRateLimiter,
  type RateLimiter,
} from './rate-limit.js';
import { RedisRateLimiter } from './rate-limit-redis.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

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

/** The same contract for every implementation; `wait` lets the window pass. */
function contract(
  name: string,
  make: () => Promise<{ limiter: RateLimiter; wait(ms: number): Promise<void> }>,
) {
  describe(name, () => {
    let limiter: RateLimiter;
    let wait: (ms: number) => Promise<void>;
    const key = () => `test:${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      ({ limiter, wait } = await make());
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
      await wait(350);
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
    wait: async (ms) => clock.advance(ms),
  };
});

const hasRedis = await redisReachable();
if (!hasRedis)
  console.warn(`Redis at ${REDIS_URL} not reachable: Redis rate-limiter tests skipped`);

describe.runIf(hasRedis)('with Redis', () => {
  contract('redis rate limiter', async () => ({
    limiter: new RedisRateLimiter(
      REDIS_URL,
      undefined,
      `portal-test:${randomBytes(4).toString('hex')}:`,
    ),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }));

  it('is chosen when REDIS_URL is set', async () => {
    const limiter = await createRateLimiter({ REDIS_URL }, new ManualClock());
    expect(limiter).toBeInstanceOf(RedisRateLimiter);
    await limiter.close();
  });

  it('shares counters between processes (two clients)', async () => {
    const prefix = `portal-test:${randomBytes(4).toString('hex')}:`;
    const one = new RedisRateLimiter(REDIS_URL, undefined, prefix);
    const two = new RedisRateLimiter(REDIS_URL, undefined, prefix);
    await one.hit('shared', 60_000);
    expect((await two.hit('shared', 60_000)).count).toBe(2);
    await one.close();
    await two.close();
  });
});

describe('redis rate limiter without Redis', () => {
  it('fails open and reports the error', async () => {
    const errors: unknown[] = [];
    const limiter = new RedisRateLimiter('redis://127.0.0.1:1', (error) => errors.push(error));
    expect(await limiter.hit('k', 1000)).toEqual({ count: 0, resetInMs: 0 });
    await limiter.refund('k');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    await limiter.close();
  });
});

it('memory is the default without REDIS_URL', async () => {
  expect(await createRateLimiter({}, new ManualClock())).toBeInstanceOf(MemoryRateLimiter);
});
