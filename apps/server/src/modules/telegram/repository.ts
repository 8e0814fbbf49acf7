import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { users } from '../auth/schema.js';

export async function findUserById(executor: Executor, id: string) {
  const [row] = await executor.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findUserByTelegramId(executor: Executor, telegramId: number) {
  const [row] = await executor
    .select()
    .from(users)
    .where(eq(users.telegramId, telegramId))
    .limit(1);
  return row ?? null;
}

export function setTelegramId(executor: Executor, userId: string, telegramId: number, now: Date) {
  return executor.update(users).set({ telegramId, updatedAt: now }).where(eq(users.id, userId));
}

export function setPhone(executor: Executor, userId: string, phone: string, now: Date) {
  return executor.update(users).set({ phone, updatedAt: now }).where(eq(users.id, userId));
}
