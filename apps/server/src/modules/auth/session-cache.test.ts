import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createUser } from '../../../test/fixtures.js';
import { createTestApp } from '../../../test/test-app.js';
import { ManualClock } from '../../adapters/clock.js';
import { RedisRevocationBus } from '../../adapters/revocation-bus.js';
import { SessionStore } from './sessions.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function waitFor(check: () => boolean) {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('session cache', () => {
  it('answers a known session without asking the database again', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const store = new SessionStore(testApp.database.db, testApp.clock);
    const { token } = await store.create({ userId: user.id });
    expect(await store.authenticate(token)).toMatchObject({ userId: user.id });

    const select = testApp.database.db.select;
    testApp.database.db.select = (() => {
      throw new Error('database asked');
    }) as never;
    try {
      expect(await store.authenticate(token)).toMatchObject({ userId: user.id });
    } finally {
      testApp.database.db.select = select;
    }
  });

  it('forgets a session the moment it is revoked, and still honours expiry', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const store = new SessionStore(testApp.database.db, testApp.clock);
    const first = await store.create({ userId: user.id });
    const second = await store.create({ userId: user.id });
    await store.authenticate(first.token);
    await store.authenticate(second.token);

    await store.revoke(user.id, first.session.id);
    expect(await store.authenticate(first.token)).toBeNull();
    expect(await store.authenticate(second.token)).not.toBeNull();

    testApp.clock.advance(8 * 24 * 60 * 60_000);
    expect(await store.authenticate(second.token)).toBeNull();
  });

  it('does not cache a session read while its revocation is still uncommitted', async () => {
    const testApp = await createTestApp();
    if (testApp.database.kind === 'pglite') return; // one connection: no concurrent reader exists
    const user = await createUser(testApp);
    const store = new SessionStore(testApp.database.db, testApp.clock);
    const { token } = await store.create({ userId: user.id });
    await testApp.database.db.transaction(async (tx) => {
      await store.revokeAll(user.id, {}, tx);
      // Another request in the gap still sees the committed (live) row…
      expect(await store.authenticate(token)).not.toBeNull();
    });
    // …but did not cache it: after the commit the session is refused.
    expect(await store.authenticate(token)).toBeNull();
  });

  it('tells every process through Redis: revoked in one, refused in the other', async () => {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    const hasRedis = await probe.connect().then(
      () => true,
      () => false,
    );
    probe.disconnect();
    if (!hasRedis) return expect.soft(hasRedis, 'Redis is not running; skipped').toBe(true);

    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const clock = new ManualClock();
    const onError = (error: Error) => {
      throw error;
    };
    const busA = new RedisRevocationBus(REDIS_URL, onError);
    const busB = new RedisRevocationBus(REDIS_URL, onError);
    const processA = new SessionStore(testApp.database.db, clock, busA);
    const processB = new SessionStore(testApp.database.db, clock, busB);
    try {
      await waitFor(() => busA.isReliable() && busB.isReliable());
      const { token, session } = await processA.create({
        userId: user.id,
        userAgent: randomBytes(4).toString('hex'),
      });
      expect(await processB.authenticate(token)).not.toBeNull(); // now cached in B
      await processA.revoke(user.id, session.id);
      await waitFor(() =>
        (processB as unknown as { tombstones: Map<string, number> }).tombstones.has(session.id),
      );
      expect(await processB.authenticate(token)).toBeNull();
    } finally {
      await processA.close();
      await processB.close();
    }
  });
});
