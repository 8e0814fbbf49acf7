import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTemporaryRedis, type TemporaryRedis } from '../../test/support/temporary-redis.js';
import { waitFor } from '../../test/support/wait-for.js';
import { RateLimiter } from './rate-limit.js';
import { RedisConnection, RedisDownError } from './redis.js';
import { RedisRevocationMarks } from './revocation-marks.js';

// A redis-server of this file's own, stopped and frozen on purpose; the shared one is not touched.
let server: TemporaryRedis;
beforeAll(async () => {
  server = await startTemporaryRedis();
});
afterEach(() => server.ensureRunning());
afterAll(() => server?.destroy());

async function timed(work: () => Promise<unknown>) {
  const startedAt = performance.now();
  const outcome = await work().catch((error: unknown) => error);
  return { outcome, ms: performance.now() - startedAt };
}

async function connected(options: ConstructorParameters<typeof RedisConnection>[1] = {}) {
  const redis = new RedisConnection(server.url, { settleMs: 0, ...options });
  await waitFor('the connection to be up', () => redis.isUp());
  return redis;
}

const outages = [
  { kind: 'stopped', breakIt: () => server.stop(), mendIt: () => server.start() },
  {
    kind: 'frozen',
    breakIt: async () => server.freeze(),
    mendIt: async () => server.thaw(),
  },
];

describe.each(outages)('Redis $kind', ({ breakIt, mendIt }) => {
  it('fails within the deadline once, then at once, until a probe finds it back', async () => {
    const told: string[] = [];
    const redis = await connected({
      onDown: () => told.push('down'),
      onUp: () => told.push('up'),
    });
    try {
      const epoch = redis.trustedEpoch();
      expect(epoch).not.toBeNull();
      await breakIt();
      const first = await timed(() => redis.run((client) => client.ping()));
      expect(first.outcome).toBeInstanceOf(Error);
      expect(first.ms).toBeLessThan(400);
      expect(redis.isUp()).toBe(false);
      expect(redis.trustedEpoch()).toBeNull();
      const next = await timed(() => redis.run((client) => client.ping()));
      expect(next.outcome).toBeInstanceOf(RedisDownError);
      expect(next.ms).toBeLessThan(5);

      await mendIt();
      await waitFor('Redis to count as up again', () => redis.isUp());
      expect(redis.trustedEpoch()).toBe(epoch! + 1);
      expect(await redis.run((client) => client.ping())).toBe('PONG');
      expect(told).toEqual(['up', 'down', 'up']);
    } finally {
      await redis.close();
    }
  });

  it('trusts nothing remembered until it has been back for the settling time', async () => {
    const redis = await connected({ settleMs: 60_000 });
    try {
      expect(redis.trustedEpoch()).toBe(0); // a clean start: no outage to recover from
      await breakIt();
      await redis.run((client) => client.ping()).catch(() => {});
      await mendIt();
      await waitFor('Redis to count as up again', () => redis.isUp());
      expect(redis.trustedEpoch()).toBeNull();
    } finally {
      await redis.close();
    }
  });

  it('holds back the marks made meanwhile and writes them before it counts as up', async () => {
    const redis = await connected();
    const marks = new RedisRevocationMarks(redis, 'test:revoked:');
    try {
      await marks.mark([{ id: 'before', keepMs: 60_000 }]);
      expect(await marks.check('before')).toBe('marked');
      await breakIt();
      await redis.run((client) => client.ping()).catch(() => {});

      const marking = await timed(() => marks.mark([{ id: 'meanwhile', keepMs: 120_000 }]));
      expect(marking.outcome).toBeUndefined();
      // Tried once more within the deadline; a stopped Redis refuses the connection at once.
      expect(marking.ms).toBeLessThan(400);
      expect(await marks.check('meanwhile')).toBe('unknown');

      await mendIt();
      await waitFor('Redis to count as up again', () => redis.isUp());
      const inspector = server.client();
      expect(await inspector.exists('test:revoked:meanwhile')).toBe(1);
      expect(await inspector.pttl('test:revoked:meanwhile')).toBeGreaterThan(60_000);
      expect(await marks.check('meanwhile')).toBe('marked');
      expect(await marks.check('never')).toBe('unmarked');
    } finally {
      await redis.close();
    }
  });

  it('counts limits in memory meanwhile, and in Redis again afterwards', async () => {
    const redis = await connected();
    const prefix = `test:rate:${Math.random()}`;
    const limiter = new RateLimiter(redis, prefix);
    const rule = { limit: 100, windowMs: 60_000 };
    try {
      expect((await limiter.hit('k', rule)).count).toBe(1);
      await breakIt();
      const counts: number[] = [];
      for (let i = 0; i < 3; i++) {
        const { outcome, ms } = await timed(() => limiter.hit('k', rule));
        expect(ms).toBeLessThan(400);
        counts.push((outcome as { count: number }).count);
      }
      expect(counts).toEqual([1, 2, 3]);

      await mendIt();
      await waitFor('Redis to count as up again', () => redis.isUp());
      // Stopped: a new, empty Redis. Frozen: the count it had, plus the hit that timed out
      // (Redis ran it once it thawed).
      const before = Number((await server.client().get(`${prefix}:k`)) ?? 0);
      expect((await limiter.hit('k', rule)).count).toBe(before + 1);
    } finally {
      await limiter.close();
      await redis.close();
    }
  });
});

it('writes a mark while Redis counts as down, if Redis answers by then', async () => {
  // No probe for a minute: Redis stays "down" for this process throughout.
  const redis = await connected({ probeEveryMs: 60_000 });
  const marks = new RedisRevocationMarks(redis, 'test:revoked:');
  try {
    server.freeze();
    await redis.run((client) => client.ping()).catch(() => {});
    server.thaw();
    expect(redis.isUp()).toBe(false);
    await marks.mark([{ id: 'direct', keepMs: 60_000 }]);
    expect(await server.client().exists('test:revoked:direct')).toBe(1);
    expect(redis.isUp()).toBe(false);
  } finally {
    await redis.close();
  }
});
