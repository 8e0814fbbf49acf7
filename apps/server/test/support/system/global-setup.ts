import { Redis } from 'ioredis';
import pg from 'pg';
import { POSTGRES_ADMIN_URL, REDIS_URL } from '../services.js';

/** Fails the run at once, with one clear line, when PostgreSQL or Redis is not there. */
export default async function setup() {
  const client = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw new Error(
      `System tests need PostgreSQL at ${POSTGRES_ADMIN_URL}: ${(error as Error).message}`,
    );
  } finally {
    await client.end().catch(() => {});
  }

  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new Error(`System tests need Redis at ${REDIS_URL}: ${(error as Error).message}`);
  } finally {
    redis.disconnect();
  }
}
