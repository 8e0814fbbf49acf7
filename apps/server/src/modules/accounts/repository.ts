/**
 * Every query of the `users` table. Each function takes the executor: the database, or the
 * caller's transaction when the read or write belongs to a larger one (a registration, a ledger
 * entry, a code's redemption).
 */
import { and, eq, isNotNull, isNull, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { Executor, Tx } from '../../db/database.js';
import { isTransaction, preparedPerDb } from '../../db/prepared.js';
import { loginKeys } from './identity.js';
import { type UserRow, users } from './schema.js';

export type { UserRow };

/** What registration and a Yandex sign-in write into a new or re-registered account. */
export type NewUser = typeof users.$inferInsert;

// ---------------------------------------------------------------- finding an account

const userById = (executor: Executor) =>
  executor
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder('id')));
/** Prepared on the database (db/prepared.ts): every sign-in to a site through the provider reads it. */
const statements = preparedPerDb((db) => ({ userById: userById(db).prepare('users_by_id') }));

export async function findUserById(executor: Executor, id: string): Promise<UserRow | undefined> {
  const query = isTransaction(executor) ? userById(executor) : statements(executor).userById;
  const [row] = await query.execute({ id });
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

export async function findUserByTelegramId(
  executor: Executor,
  telegramId: number,
): Promise<UserRow | undefined> {
  const [row] = await executor
    .select()
    .from(users)
    .where(eq(users.telegramId, telegramId))
    .limit(1);
  return row;
}

export async function findUserByYandexId(
  executor: Executor,
  yandexId: string,
): Promise<UserRow | undefined> {
  const [row] = await executor.select().from(users).where(eq(users.yandexId, yandexId)).limit(1);
  return row;
}

export async function isUserNameKeyTaken(executor: Executor, key: string): Promise<boolean> {
  const [taken] = await executor
    .select({ id: users.id })
    .from(users)
    .where(eq(users.userNameKey, key))
    .limit(1);
  return taken !== undefined;
}

// ---------------------------------------------------------------- creating and removing

export async function insertUser(executor: Executor, values: NewUser): Promise<UserRow> {
  const [created] = await executor.insert(users).values(values).returning();
  return created!;
}

export async function deleteUser(executor: Executor, userId: string): Promise<void> {
  await executor.delete(users).where(eq(users.id, userId));
}

// ---------------------------------------------------------------- changing an account

/** The columns a change of the account may set; every change also stamps `updatedAt`. */
type UserChange = Partial<
  Pick<
    NewUser,
    | 'email'
    | 'emailKey'
    | 'userName'
    | 'userNameKey'
    | 'passwordHash'
    | 'firstName'
    | 'middleName'
    | 'lastName'
    | 'phone'
    | 'avatarUrl'
    | 'yandexId'
    | 'telegramId'
    | 'confirmedAt'
    | 'signInAlertsByEmail'
    | 'isPasswordCommon'
  >
> & { updatedAt: Date };

/** Answers the changed row, or undefined when there is no such account. */
export async function updateUser(
  executor: Executor,
  userId: string,
  change: UserChange,
): Promise<UserRow | undefined> {
  const [row] = await executor.update(users).set(change).where(eq(users.id, userId)).returning();
  return row;
}

// ---------------------------------------------------------------- unlinking a way in

/** Unlinks the account's Telegram in one conditional update; false when none was linked. */
export async function unlinkUserTelegram(
  executor: Executor,
  userId: string,
  now: Date,
): Promise<boolean> {
  const rows = await executor
    .update(users)
    .set({ telegramId: null, updatedAt: now })
    .where(and(eq(users.id, userId), isNotNull(users.telegramId)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Unlinks the account's Yandex ID in one conditional update, only while the account has a password
 * (else Yandex ID is its only way in): `only_way_in` then, `not_linked` when none was linked.
 */
export async function unlinkUserYandex(
  executor: Executor,
  userId: string,
  now: Date,
): Promise<'unlinked' | 'not_linked' | 'only_way_in'> {
  const rows = await executor
    .update(users)
    .set({ yandexId: null, updatedAt: now })
    .where(and(eq(users.id, userId), isNotNull(users.yandexId), isNotNull(users.passwordHash)))
    .returning({ id: users.id });
  if (rows.length > 0) return 'unlinked';
  const user = await findUserById(executor, userId);
  return user?.yandexId ? 'only_way_in' : 'not_linked';
}

// ---------------------------------------------------------------- blocking (modules/operator)

/**
 * Blocks the account (`block`) or lifts the block (null), only when it is not blocked yet, or is
 * blocked, respectively: of two operators at once, one changes it. Answers the changed row, or
 * undefined when nothing changed. Run it in a transaction: the row is taken `FOR UPDATE` first,
 * the one lock that waits for a sign-in's `FOR KEY SHARE` (`isUserBlockedForSignIn`), so a
 * session being created right now is committed before this change and can be ended with it.
 */
export async function setUserBlocked(
  executor: Executor,
  userId: string,
  block: { reason: string } | null,
  now: Date,
): Promise<UserRow | undefined> {
  await executor.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [row] = await executor
    .update(users)
    .set({ blockedAt: block ? now : null, blockedReason: block?.reason ?? null, updatedAt: now })
    .where(and(eq(users.id, userId), block ? isNull(users.blockedAt) : isNotNull(users.blockedAt)))
    .returning();
  return row;
}

/**
 * Whether the account is blocked, read under `FOR KEY SHARE` until the caller's transaction
 * ends: a session created in that transaction either commits before a block (`setUserBlocked`
 * waits for it, and the block's revocation then ends the session) or waits for the block and
 * sees it. The weakest lock that does this: it does not wait for the ledger's balance lock
 * (`FOR NO KEY UPDATE`), so a sign-in never queues behind a payment.
 */
export async function isUserBlockedForSignIn(executor: Executor, userId: string): Promise<boolean> {
  const [row] = await executor
    .select({ blockedAt: users.blockedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('key share');
  return row?.blockedAt != null;
}

// ---------------------------------------------------------------- balances (modules/payments)

export type BalanceCurrency = 'rub' | 'points';

export interface LockedBalances {
  kopecks: number;
  points: number;
  email: string;
}

/**
 * Locks the user's row until the transaction ends and answers the balances. `NO KEY UPDATE`
 * excludes other balance writers but not the foreign-key checks of unrelated inserts (a new
 * session, say). The order of locks is the caller's business (modules/payments/ledger.ts).
 */
export async function lockUserBalances(tx: Tx, userId: string): Promise<LockedBalances | null> {
  const [row] = await tx
    .select({ kopecks: users.balanceKopecks, points: users.balancePoints, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return row ?? null;
}

/**
 * Moves one balance by `amount`, only if it stays at or above zero (the database itself refuses
 * the overdraft), and only when `entry` (an `INSERT … ON CONFLICT DO NOTHING RETURNING …` of
 * the ledger entry that records why) inserted its row: one statement, one round trip. The user's
 * row is locked by this update before the entry's foreign key is checked (at the end of the
 * statement), so the lock order of `lockUserBalances` holds. `refused`: the entry was inserted
 * but the balance would go below zero; the caller rolls back.
 *
 * `guard`, when given, is another module's `UPDATE … RETURNING` run first in the same statement,
 * as the CTE `guard`, which `entry` selects from: its row is locked before the user's, and when
 * it updated no row nothing is inserted or moved (`unguarded`).
 */
export async function addToBalanceWith(
  executor: Executor,
  entry: SQLWrapper,
  userId: string,
  currency: BalanceCurrency,
  amount: number,
  guard?: SQLWrapper,
): Promise<'moved' | 'duplicate' | 'refused' | 'unguarded'> {
  const column = currency === 'rub' ? users.balanceKopecks : users.balancePoints;
  // Drizzle puts an embedded query in parentheses itself. The entry reads the guard and the
  // balance update reads the entry, so they run in that order (and lock in that order).
  const result = (await executor.execute(sql`
    WITH ${guard ? sql`guard AS ${guard},` : sql``} entry AS ${entry},
    moved AS (
      UPDATE ${users} SET ${sql.identifier(column.name)} = ${column} + ${amount}
      FROM entry
      WHERE ${users.id} = ${userId} AND ${column} + ${amount} >= 0
      RETURNING ${users.id}
    )
    SELECT ${guard ? sql`(SELECT count(*) FROM guard)::int` : sql`1`} AS guarded,
      (SELECT count(*) FROM entry)::int AS inserted, (SELECT count(*) FROM moved)::int AS moved
  `)) as unknown as { rows: { guarded: number; inserted: number; moved: number }[] };
  const [row] = result.rows;
  if (!row || row.guarded === 0) return 'unguarded';
  if (row.inserted === 0) return 'duplicate';
  return row.moved > 0 ? 'moved' : 'refused';
}

/** The balances without a lock, for reading only. */
export async function readBalances(
  executor: Executor,
  userId: string,
): Promise<{ kopecks: number; points: number } | undefined> {
  const [row] = await executor
    .select({ kopecks: users.balanceKopecks, points: users.balancePoints })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

// ---------------------------------------------------------------- erasure (modules/account-data)

/**
 * Turns the account into a tombstone: its personal data blanked, its unique keys replaced by
 * `deleted:<id>`, which no e-mail address or username can equal (neither holds a colon without
 * an '@', and usernames are Latin letters, digits and '_'), and no password, so nothing signs in
 * as it. The row stays: payments, ledger entries and services keep their foreign key to it.
 * Answers false when the account is missing or erased already (a second run changes nothing).
 */
export async function eraseUserIdentity(
  executor: Executor,
  userId: string,
  now: Date,
): Promise<boolean> {
  const tombstoneKey = `deleted:${userId}`;
  const rows = await executor
    .update(users)
    .set({
      email: '',
      emailKey: tombstoneKey,
      userName: '',
      userNameKey: tombstoneKey,
      passwordHash: null,
      firstName: '',
      middleName: '',
      lastName: '',
      phone: null,
      avatarUrl: null,
      yandexId: null,
      telegramId: null,
      status: 'deleted',
      deletedAt: now,
      updatedAt: now,
    })
    .where(and(eq(users.id, userId), eq(users.status, 'active')))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Whether the account is an erased one's tombstone (the sibling API then answers 404). */
export async function isUserErased(executor: Executor, userId: string): Promise<boolean> {
  const [row] = await executor
    .select({ status: users.status })
    .from(users)
    .where(eq(users.id, userId));
  return row?.status === 'deleted';
}
