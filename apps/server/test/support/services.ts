import { Redis } from 'ioredis';

/**
 * Where the tests find the machine's PostgreSQL and Redis. The system tests always need both,
 * whether or not TEST_DATABASE_URL is set for the rest of the suite: a server process cannot run
 * on the embedded database of another process. The tests of the Redis pieces use REDIS_URL too.
 */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers at REDIS_URL: the tests of the Redis pieces skip themselves without it. */
export async function isRedisRunning(): Promise<boolean> {
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

/** Every server process of these tests signs with this key, so they can check each other's work. */
export const SYSTEM_SECRET_KEY = 'system-test-secret-key-system-test-secret-key';
