/**
 * What a listening portal records about itself (migrations/0770_portal_runtime.sql), so that the
 * operator's tool, a process of its own with its own environment, can tell how the portal runs.
 * Written by `recordPortalStart` when the portal starts listening (app.ts); never by the
 * tool or by tests that build the app without listening.
 */
import type { Database, Executor } from '../../db/database.js';
import { Refusal } from './context.js';
import { portalRuntime } from './schema.js';

export async function recordPortalStart(
  executor: Executor,
  start: { usesRedis: boolean; at: Date },
): Promise<void> {
  await executor
    .insert(portalRuntime)
    .values({ id: 1, usesRedis: start.usesRedis, startedAt: start.at })
    .onConflictDoUpdate({
      target: portalRuntime.id,
      set: { usesRedis: start.usesRedis, startedAt: start.at },
    });
}

/** What the portal recorded at its last start, or null when no portal has listened yet. */
export async function lastPortalStart(
  executor: Executor,
): Promise<{ usesRedis: boolean; startedAt: Date } | null> {
  const [row] = await executor
    .select({ usesRedis: portalRuntime.usesRedis, startedAt: portalRuntime.startedAt })
    .from(portalRuntime);
  return row ?? null;
}

/**
 * Refuses (`Refusal`) to end sessions (`block`, `end-sessions`) from a tool without Redis beside
 * a portal that runs with it: such a portal answers sessions from its memory and hears of their
 * end only through Redis, so a session ended here would outlive the block there (up to a minute,
 * until its last-activity write). Only on PostgreSQL: the tool cannot open the embedded database
 * while a portal runs on it (db/data-dir-lock.ts).
 */
export async function refuseWithoutRedisBesideRedisPortal(deps: {
  database: Pick<Database, 'kind' | 'db'>;
  redis: unknown;
}): Promise<void> {
  if (deps.database.kind !== 'postgres' || deps.redis) return;
  const start = await lastPortalStart(deps.database.db);
  if (!start?.usesRedis) return;
  throw new Refusal(
    'Портал работает с Redis, а у команды нет REDIS_URL: сеансы, которые портал помнит, ' +
      'пережили бы завершение. Ничего не изменено. Задайте REDIS_URL тот же, что у портала, ' +
      'и повторите команду.',
  );
}
