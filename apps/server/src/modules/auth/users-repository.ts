import { eq, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { loginKeys } from './identity.js';
import { type UserRow, users } from './schema.js';

export async function findUserById(executor: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await executor.select().from(users).where(eq(users.id, id));
  return row;
}

/** `forUpdate` locks the row until the transaction ends (concurrent registrations). */
export async function findUserByEmailKey(
  executor: Executor,
  key: string,
  options: { forUpdate?: boolean } = {},
): Promise<UserRow | undefined> {
  const query = executor.select().from(users).where(eq(users.emailKey, key));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

export async function findUserByUserNameKey(
  executor: Executor,
  key: string,
): Promise<UserRow | undefined> {
  const [row] = await executor.select().from(users).where(eq(users.userNameKey, key));
  return row;
}

/**
 * The account a login form names, by username or e-mail, case-insensitively. Usernames cannot
 * hold '@', but older rows might: an e-mail match wins.
 */
export async function findUserByLogin(
  executor: Executor,
  usernameOrEmail: string,
): Promise<UserRow | undefined> {
  const keys = loginKeys(usernameOrEmail);
  const [row] = await executor
    .select()
    .from(users)
    .where(or(eq(users.emailKey, keys.emailKey), eq(users.userNameKey, keys.userNameKey)))
    .orderBy(sql`(${users.emailKey} = ${keys.emailKey}) DESC`)
    .limit(1);
  return row;
}
