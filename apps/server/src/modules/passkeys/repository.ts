import { and, asc, eq, gt, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import {
  type PasskeyChallengePurpose,
  type PasskeyRow,
  passkeyChallenges,
  passkeys,
} from './schema.js';

/** Every query of `passkeys` and `passkey_challenges`; writes join the caller's transaction. */

export async function insertChallenge(
  executor: Executor,
  challenge: {
    challenge: string;
    purpose: PasskeyChallengePurpose;
    userId: string | null;
    expiresAt: Date;
  },
) {
  await executor.insert(passkeyChallenges).values(challenge);
}

/**
 * Takes the challenge out in one statement: of any number of answers carrying it, one gets the
 * row and the others nothing. Answers its account (null: a discoverable sign-in), or undefined
 * when there is no such live challenge for this purpose.
 */
export async function consumeChallenge(
  executor: Executor,
  challenge: string,
  purpose: PasskeyChallengePurpose,
  now: Date,
): Promise<{ userId: string | null } | undefined> {
  const [row] = await executor
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.challenge, challenge),
        eq(passkeyChallenges.purpose, purpose),
        gt(passkeyChallenges.expiresAt, now),
      ),
    )
    .returning({ userId: passkeyChallenges.userId });
  return row;
}

export async function insertPasskey(
  executor: Executor,
  row: Omit<PasskeyRow, 'id' | 'lastUsedAt'>,
): Promise<PasskeyRow> {
  const [inserted] = await executor.insert(passkeys).values(row).returning();
  return inserted!;
}

export async function listPasskeys(executor: Executor, userId: string): Promise<PasskeyRow[]> {
  return executor
    .select()
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
}

export async function hasPasskeys(executor: Executor, userId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: passkeys.id })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .limit(1);
  return row !== undefined;
}

export async function findPasskeyByCredentialId(executor: Executor, credentialId: string) {
  const [row] = await executor
    .select()
    .from(passkeys)
    .where(eq(passkeys.credentialId, credentialId));
  return row;
}

/** Renames the user's own passkey; false when they have none of that id. */
export async function renamePasskey(
  executor: Executor,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeyRow | undefined> {
  const [row] = await executor
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return row;
}

export async function deletePasskey(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return row !== undefined;
}

/**
 * Records a use: the new counter only if it is above the stored one (or both are 0, for
 * authenticators without a counter), in one conditional statement, so two uses racing with one
 * counter value cannot both pass. False: the counter went back, a sign of a cloned key.
 */
export async function recordPasskeyUse(
  executor: Executor,
  id: string,
  counter: number,
  isBackedUp: boolean,
  now: Date,
): Promise<boolean> {
  const rows = await executor
    .update(passkeys)
    .set({ counter, isBackedUp, lastUsedAt: now })
    .where(
      and(
        eq(passkeys.id, id),
        or(lt(passkeys.counter, counter), and(eq(passkeys.counter, 0), sql`${counter} = 0`)),
      ),
    )
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/**
 * The account's passkeys for «Скачать мои данные»: their names and dates, never a key.
 */
export async function listPasskeysForExport(executor: Executor, userId: string) {
  const rows = await listPasskeys(executor, userId);
  return rows.map((row) => ({
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}
