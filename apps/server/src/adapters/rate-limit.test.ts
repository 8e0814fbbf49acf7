import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateMovingClock } from '../../test/support/date-clock.js';
import { isRedisRunning, REDIS_URL } from '../../test/support/services.js';
import { waitFor } from '../../test/support/wait-for.js';
import { AppError } from '../http/app-error.js';
import { enforceLimit, limitFailures, RateLimiter } from './rate-limit.js';
import { RedisConnection } from './redis.js';

const MINUTE = { limit: 1_000, windowMs: 60_000 };
const SECOND = { limit: 1_000, windowMs: 1_000 };

/** The same contract with and without Redis; `windowEnds` returns once a key's window is over. */
function contract(
  name: string,
  make: () => Promise<{
    limiter: RateLimiter;
    windowEnds(key: string, windowMs: number): Promise<void>;
    /** Time passes by `ms`: the app clock's, or Redis's own. */
    timePasses(ms: number): Promise<void>;
  }>,
) {
  describe(name, () => {
    let limiter: RateLimiter;
    let windowEnds: (key: string, windowMs: number) => Promise<void>;
    let timePasses: (ms: number) => Promise<void>;
    const key = () => `test:${randomBytes(6).toString('hex')}`;

    beforeAll(async () => {
      ({ limiter, windowEnds, timePasses } = await make());
    });
    afterAll(async () => {
      await limiter.close();
    });

    it('counts hits in a window and tells when it ends', async () => {
      const k = key();
      expect((await limiter.hit(k, MINUTE)).count).toBe(1);
      const second = await limiter.hit(k, MINUTE);
      expect(second.count).toBe(2);
      expect(second.resetInMs).toBeGreaterThan(55_000);
      expect(second.resetInMs).toBeLessThanOrEqual(60_000);
    });

    it('starts over when the window ends, which began at the first hit', async () => {
      const k = key();
      await limiter.hit(k, SECOND);
      expect((await limiter.hit(k, SECOND)).count).toBe(2);
      await windowEnds(k, SECOND.windowMs);
      const next = await limiter.hit(k, SECOND);
      expect(next.count).toBe(1);
      expect(next.resetInMs).toBeGreaterThan(SECOND.windowMs / 2);
    });

    it('keeps keys apart', async () => {
      const a = key();
      const b = key();
      await limiter.hit(a, MINUTE);
      await limiter.hit(a, MINUTE);
      expect((await limiter.hit(b, MINUTE)).count).toBe(1);
      expect((await limiter.hit(a, MINUTE)).count).toBe(3);
    });

    it('takes a hit back, never below zero, and never makes a window', async () => {
      const k = key();
      await limiter.refund(k, MINUTE);
      expect((await limiter.hit(k, MINUTE)).count).toBe(1);
      await limiter.hit(k, MINUTE);
      await limiter.refund(k, MINUTE);
      await limiter.refund(k, MINUTE);
      await limiter.refund(k, MINUTE);
      expect((await limiter.hit(k, MINUTE)).count).toBe(1);

      // A refund of a key with no window opens none: the window starts at the next hit.
      const late = key();
      await limiter.refund(late, SECOND);
      await timePasses(SECOND.windowMs / 2);
      expect((await limiter.hit(late, SECOND)).resetInMs).toBeGreaterThan(SECOND.windowMs * 0.9);
    });

    it('never goes below zero under parallel refunds', async () => {
      const k = key();
      await limiter.hit(k, MINUTE);
      await Promise.all(Array.from({ length: 5 }, () => limiter.refund(k, MINUTE)));
      expect((await limiter.hit(k, MINUTE)).count).toBe(1);
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

/** The memory's windows keep `Date`'s time: the clock moves it too. */
const memoryClock = new DateMovingClock();

contract('without Redis', async () => {
  const clock = memoryClock;
  return {
    limiter: new RateLimiter(null),
    windowEnds: async (_key, windowMs) => clock.advance(windowMs),
    timePasses: async (ms) => clock.advance(ms),
  };
});

const hasRedis = await isRedisRunning();
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

  contract('in Redis', async () => {
    const prefix = `portal-test:${randomBytes(4).toString('hex')}`;
    return {
      limiter: new RateLimiter(redis, prefix),
      // Redis ends a window by its own clock: the key is gone then.
      windowEnds: async (key) => {
        await waitFor(
          'the window to end',
          async () => (await redis.run((client) => client.exists(`${prefix}:${key}`))) === 0,
        );
      },
      timePasses: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
  });

  it('keeps its counts under portal:rate:<key>', async () => {
    const key = `test:${randomBytes(6).toString('hex')}`;
    const limiter = new RateLimiter(redis);
    await limiter.hit(key, MINUTE);
    await limiter.hit(key, MINUTE);
    expect(await redis.run((client) => client.get(`portal:rate:${key}`))).toBe('2');
    expect(await redis.run((client) => client.pttl(`portal:rate:${key}`))).toBeGreaterThan(55_000);
    await redis.run((client) => client.del(`portal:rate:${key}`));
  });

  it('shares counters between processes (two connections)', async () => {
    const prefix = `portal-test:${randomBytes(4).toString('hex')}`;
    const other = await connectedRedis();
    const one = new RateLimiter(redis, prefix);
    const two = new RateLimiter(other, prefix);
    await one.hit('shared', MINUTE);
    expect((await two.hit('shared', MINUTE)).count).toBe(2);
    await other.close();
  });
});

describe('with Redis unreachable', () => {
  it('counts in memory meanwhile, at once, with the same rules', async () => {
    const redis = new RedisConnection('redis://127.0.0.1:1');
    const limiter = new RateLimiter(redis);
    const startedAt = performance.now();
    expect(await limiter.hit('k', MINUTE)).toEqual({ count: 1, resetInMs: 60_000 });
    expect((await limiter.hit('k', MINUTE)).count).toBe(2);
    await limiter.refund('k', MINUTE);
    expect((await limiter.hit('k', MINUTE)).count).toBe(2);
    await limiter.refund('k', MINUTE);
    await limiter.refund('k', MINUTE);
    await limiter.refund('k', MINUTE);
    expect((await limiter.hit('k', MINUTE)).count).toBe(1);
    expect(performance.now() - startedAt).toBeLessThan(100);
    await redis.close();
  });
});

it('refuses a window that is not whole seconds (Redis expires keys by the second)', async () => {
  const limiter = new RateLimiter(null);
  await expect(limiter.hit('k', { limit: 1, windowMs: 300 })).rejects.toThrow(/whole seconds/);
});
