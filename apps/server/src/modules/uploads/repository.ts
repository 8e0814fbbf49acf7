import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { uploads } from './schema.js';

export function recordUpload(executor: Executor, row: typeof uploads.$inferInsert) {
  return executor.insert(uploads).values(row);
}

/** The upload behind an address, when this user uploaded it. */
export async function findOwnUpload(executor: Executor, userId: string, address: string) {
  const [row] = await executor
    .select()
    .from(uploads)
    .where(and(eq(uploads.address, address), eq(uploads.userId, userId)))
    .limit(1);
  return row ?? null;
}
