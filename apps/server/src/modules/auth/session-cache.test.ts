import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../test/support/fixtures.js';
import { REDIS_URL } from '../../../test/support/services.js';
import { createTestApp, type TestApp } from '../../../test/support/test-app.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { ManualClock } from '../../adapters/clock.js';
import { RedisConnection } from '../../adapters/redis.js';
import {
  type MarkState,
  RedisRevocationMarks,
  type RevocationMarks,
} from '../../adapters/revocation-marks.js';
import { sessions } from './schema.js';
import { type SessionSignIn, SessionStore } from './sessions.js';

describe('session cache', () => {
  it('answers a known session without asking the database again', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const store = new SessionStore({ db: testApp.database.db, clock: testApp.clock });
    const signIn: SessionSignIn = { method: 'password', amr: ['pwd', 'otp'] };
    const { token, session } = await store.create({
      userId: user.id,
      userAgent: 'Firefox',
      signIn,
    });
    // The session as the request carries it: its start, browser and sign-in too (the provider's
    // sign-in reads no row for them), from the database and then from the cache alike.
    const expected = {
      id: session.id,
      userId: user.id,
      siblingOrigin: null,
      createdAt: session.createdAt,
      userAgent: 'Firefox',
      signIn,
    };
    expect(await store.authenticate(token)).toEqual(expected);

    // Gone from the database: only the cache can still answer it.
    await testApp.database.db.delete(sessions).where(eq(sessions.id, session.id));
    expect(await store.authenticate(token)).toEqual(expected);
  });

  it('remembers at most its size of sessions, forgetting the one checked longest ago', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const store = new SessionStore({ db: testApp.database.db, clock: testApp.clock, cacheSize: 2 });
    const answers: string[] = [];
    store.onCacheLookup((isHit) => answers.push(isHit ? 'hit' : 'miss'));
    const [first, second, third] = await Promise.all(
      [1, 2, 3].map(async () => (await store.create({ userId: user.id })).token),
    );
    for (const token of [first, second, first, third, first, second]) {
      expect(await store.authenticate(token!)).toMatchObject({ userId: user.id });
    }
    // The third session pushed out the second (checked longest ago), not the first.
    expect(answers).toEqual(['miss', 'miss', 'hit', 'miss', 'hit', 'miss']);

    const none = new SessionStore({ db: testApp.database.db, clock: testApp.clock, cacheSize: 0 });
    const seen: boolean[] = [];
    none.onCacheLookup((isHit) => seen.push(isHit));
    for (let check = 0; check < 2; check++) await none.authenticate(first!);
    expect(seen).toEqual([false, false]);
  });

  it('forgets a session the moment it is revoked, and still honours expiry', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const store = new SessionStore({ db: testApp.database.db, clock: testApp.clock });
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

  it('tells whether one session is live by the rule of the live sessions list', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const stranger = await createUser(testApp);
    const store = new SessionStore({ db: testApp.database.db, clock: testApp.clock });
    const normal = (await store.create({ userId: user.id })).session;
    const { token: rememberedToken, session: remembered } = await store.create({
      userId: user.id,
      rememberMe: true,
    });
    const revoked = (await store.create({ userId: user.id })).session;
    await store.revoke(user.id, revoked.id);
    const states = async () => {
      const listed = (await store.listActive(user.id)).map((session) => session.id);
      const answers: Record<string, [boolean, boolean]> = {};
      for (const [name, { id }] of Object.entries({ normal, remembered, revoked })) {
        answers[name] = [await store.isLive(user.id, id), listed.includes(id)];
      }
      return answers;
    };
    expect(await states()).toEqual({
      normal: [true, true],
      remembered: [true, true],
      revoked: [false, false],
    });
    expect(await store.isLive(stranger.id, normal.id)).toBe(false);
    // Idle for a day and a minute: past the normal idle limit, not the remembered one.
    testApp.clock.advance(24 * 60 * 60_000 + 60_000);
    expect(await states()).toEqual({
      normal: [false, false],
      remembered: [true, true],
      revoked: [false, false],
    });
    // Active every 20 days, never idle too long, until past its absolute limit (90 days).
    for (let day = 20; day <= 80; day += 20) {
      testApp.clock.advance(20 * 24 * 60 * 60_000);
      expect(await store.authenticate(rememberedToken)).not.toBeNull();
    }
    expect((await states()).remembered).toEqual([true, true]);
    testApp.clock.advance(15 * 24 * 60 * 60_000);
    expect((await states()).remembered).toEqual([false, false]);
  });

  it('refuses after the commit a session read while its revocation was uncommitted', async () => {
    const testApp = await createTestApp();
    if (testApp.database.kind === 'pglite') return; // one connection: no concurrent reader exists
    const user = await createUser(testApp);
    const store = new SessionStore({ db: testApp.database.db, clock: testApp.clock });
    const { token } = await store.create({ userId: user.id });
    await testApp.database.db.transaction(async (tx) => {
      await store.revokeAll(user.id, {}, tx);
      // Another request in the gap still sees the committed (live) row…
      expect(await store.authenticate(token)).not.toBeNull();
    });
    // …but its mark sends the next check to the database: after the commit it is refused.
    expect(await store.authenticate(token)).toBeNull();
  });

  it('tells every process through Redis: revoked in one, refused by the other on its next call', async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    await withTwoProcesses(testApp, async ({ processA, processB }) => {
      const { token, session } = await processA.create({ userId: user.id });
      expect(await processB.authenticate(token)).not.toBeNull(); // now cached in B
      await processA.revoke(user.id, session.id);
      // No waiting: the mark was written before revoke returned.
      expect(await processB.authenticate(token)).toBeNull();
    });
  });

  it("marks a revocation in the caller's transaction only once it commits, and never one that rolled back", async () => {
    const testApp = await createTestApp();
    const user = await createUser(testApp);
    const { db } = testApp.database;
    await withTwoProcesses(testApp, async ({ processA, processB, isMarked }) => {
      const { token, session } = await processA.create({ userId: user.id });
      expect(await processB.authenticate(token)).not.toBeNull(); // now cached in B
      const answers: boolean[] = [];
      processB.onCacheLookup((isHit) => answers.push(isHit));

      const rolledBack = db.transaction(async (tx) => {
        expect(await processA.revokeAll(user.id, {}, tx)).toBe(1);
        throw new Error('the rest of the change failed');
      });
      await expect(rolledBack).rejects.toThrow('the rest of the change failed');
      expect(await isMarked(session.id)).toBe(false);
      // Still live, and B still answers it from its cache: nothing sent it to the database.
      expect(await processB.authenticate(token)).not.toBeNull();
      expect(answers).toEqual([true]);

      await db.transaction(async (tx) => {
        expect(await processA.revoke(user.id, session.id, tx)).toBe(true);
        expect(await isMarked(session.id)).toBe(false);
      });
      expect(await isMarked(session.id)).toBe(true);
      expect(await processB.authenticate(token)).toBeNull();
    });
  });
});

/**
 * Two processes' session stores over one database, each with its own Redis connection, and a
 * probe of the marks; the test is skipped (softly failed) when Redis is not running.
 */
async function withTwoProcesses(
  testApp: TestApp,
  run: (processes: {
    processA: SessionStore;
    processB: SessionStore;
    isMarked: (sessionId: string) => Promise<boolean>;
  }) => Promise<void>,
) {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on('error', () => {});
  const hasRedis = await probe.connect().then(
    () => true,
    () => false,
  );
  if (!hasRedis) return expect.soft(hasRedis, 'Redis is not running; skipped').toBe(true);

  const clock = new ManualClock();
  const prefix = `portal-test:${randomBytes(4).toString('hex')}:`;
  const redisA = new RedisConnection(REDIS_URL, { settleMs: 0 });
  const redisB = new RedisConnection(REDIS_URL, { settleMs: 0 });
  const processOn = (redis: RedisConnection) =>
    new SessionStore({
      db: testApp.database.db,
      clock,
      marks: new RedisRevocationMarks(redis, prefix),
    });
  try {
    await waitFor(
      'both connections to trust the marks',
      () => redisA.trustedEpoch() !== null && redisB.trustedEpoch() !== null,
      { timeoutMs: 5_000, intervalMs: 10 },
    );
    await run({
      processA: processOn(redisA),
      processB: processOn(redisB),
      isMarked: async (sessionId) => (await probe.exists(prefix + sessionId)) === 1,
    });
  } finally {
    probe.disconnect();
    await redisA.close();
    await redisB.close();
  }
}

/** Marks whose answers the test sets. */
class ScriptedMarks implements RevocationMarks {
  state: MarkState = 'unmarked';
  epoch: number | null = 0;
  async mark() {}
  async check() {
    return this.state;
  }
  trustedEpoch() {
    return this.epoch;
  }
}

describe('session cache when the marks cannot be trusted', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp();
  });

  async function setUp() {
    const user = await createUser(testApp);
    const marks = new ScriptedMarks();
    const store = new SessionStore({ db: testApp.database.db, clock: testApp.clock, marks });
    const { token, session } = await store.create({ userId: user.id });
    // Revoked behind the store's back: only a database read sees it.
    const revokeQuietly = () =>
      testApp.database.db
        .update(sessions)
        .set({ revokedAt: testApp.clock.now() })
        .where(eq(sessions.id, session.id));
    return { marks, store, token, revokeQuietly };
  }

  it('answers from the cache while the marks are trusted (the control)', async () => {
    const { store, token, revokeQuietly } = await setUp();
    await store.authenticate(token);
    await revokeQuietly();
    expect(await store.authenticate(token)).not.toBeNull();
  });

  it('asks the database when a mark cannot be read (Redis down)', async () => {
    const { store, token, marks, revokeQuietly } = await setUp();
    await store.authenticate(token);
    await revokeQuietly();
    marks.state = 'unknown';
    expect(await store.authenticate(token)).toBeNull();
  });

  it('asks the database when the session is marked', async () => {
    const { store, token, marks, revokeQuietly } = await setUp();
    await store.authenticate(token);
    marks.state = 'marked';
    expect(await store.authenticate(token)).not.toBeNull(); // not revoked in the database (yet)
    await revokeQuietly();
    expect(await store.authenticate(token)).toBeNull();
  });

  it('caches nothing while the marks are not trusted, and nothing from before an outage', async () => {
    const { store, token, marks, revokeQuietly } = await setUp();
    marks.epoch = null;
    await store.authenticate(token); // not cached
    marks.epoch = 0;
    await revokeQuietly();
    expect(await store.authenticate(token)).toBeNull();

    const other = await setUp();
    await other.store.authenticate(other.token); // cached under epoch 0
    other.marks.epoch = 1; // an outage since: a mark may have been missed
    await other.revokeQuietly();
    expect(await other.store.authenticate(other.token)).toBeNull();
  });

  it('notices a revocation that left no mark at the next activity write, within a minute', async () => {
    const { store, token, revokeQuietly } = await setUp();
    await store.authenticate(token);
    await revokeQuietly();
    expect(await store.authenticate(token)).not.toBeNull();
    testApp.clock.advance(61_000);
    expect(await store.authenticate(token)).toBeNull();
  });

  it('answers a revocation though the marks cannot be written, and refuses the session', async () => {
    const user = await createUser(testApp);
    const redis = new RedisConnection('redis://127.0.0.1:1');
    const store = new SessionStore({
      db: testApp.database.db,
      clock: testApp.clock,
      marks: new RedisRevocationMarks(redis),
    });
    try {
      const { token, session } = await store.create({ userId: user.id });
      expect(await store.authenticate(token)).not.toBeNull();
      expect(await store.revoke(user.id, session.id)).toBe(true);
      expect(await store.authenticate(token)).toBeNull();
      const { token: second } = await store.create({ userId: user.id });
      expect(await store.revokeAll(user.id)).toBe(1);
      expect(await store.authenticate(second)).toBeNull();
    } finally {
      await redis.close();
    }
  });
});
