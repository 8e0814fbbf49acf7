import { randomBytes } from 'node:crypto';
import { desc, sql } from 'drizzle-orm';
import { mailOutbox } from '../../src/adapters/mail-schema.js';
import { users } from '../../src/modules/accounts/schema.js';
import { hashPassword } from '../../src/modules/auth/passwords.js';
import type { SessionSignIn } from '../../src/modules/auth/sessions.js';
import { codeIn } from './smtp-server.js';
import type { TestApp } from './test-app.js';

export const DEFAULT_PASSWORD = 'Secret-Pass1';

// One hash for every fixture user with the default password: argon2 is slow on purpose.
let defaultHash: Promise<string> | undefined;

/** A confirmed user written straight to the database. */
export async function createUser(
  { database }: Pick<TestApp, 'database'>,
  overrides: Partial<typeof users.$inferInsert> & { password?: string } = {},
) {
  const suffix = randomBytes(4).toString('hex');
  const { password, ...columns } = overrides;
  const email = columns.email ?? `user-${suffix}@example.com`;
  const userName = columns.userName ?? `user_${suffix}`;
  defaultHash ??= hashPassword(DEFAULT_PASSWORD);
  const passwordHash = password ? await hashPassword(password) : await defaultHash;
  const [user] = await database.db
    .insert(users)
    .values({
      email,
      emailKey: email.trim().toLowerCase(),
      userName,
      userNameKey: userName.normalize('NFKC').toLowerCase(),
      passwordHash,
      firstName: 'Иван',
      lastName: 'Петров',
      confirmedAt: new Date(),
      ...columns,
    })
    .returning();
  return user!;
}

/**
 * A live session for the user; answers the bearer token. `isProven`: the session has just proved
 * its owner, as after `POST …/Auth/proof` (auth/recent-proof.ts). `signIn`: how it signed in, as
 * the sign-in policy keeps it on the session (a site's `amr`); none by default.
 */
export async function signIn(
  { app }: Pick<TestApp, 'app'>,
  userId: string,
  options: {
    userAgent?: string;
    ipAddress?: string;
    isProven?: boolean;
    signIn?: SessionSignIn;
  } = {},
) {
  const { isProven, ...client } = options;
  const { token, session } = await app.deps.sessions.create({ userId, ...client });
  if (isProven) await app.deps.sessions.markProven(session.id);
  return { token, sessionId: session.id, headers: { authorization: `Bearer ${token}` } };
}

/** A user and a session in one call. */
export async function createSignedInUser(
  testApp: TestApp,
  overrides: Parameters<typeof createUser>[1] = {},
  session: { isProven?: boolean } = {},
) {
  const user = await createUser(testApp, overrides);
  return { user, ...(await signIn(testApp, user.id, session)) };
}

/**
 * Letters the dev mailbox holds for an address (no SMTP_URL in tests by default), newest first.
 * A letter is written in the transaction of the change that caused it, so it is here as soon as
 * the call answered. For a real SMTP exchange use test/support/smtp-server.ts.
 */
export async function lettersTo({ database }: Pick<TestApp, 'database'>, address: string) {
  const rows = await database.db
    .select()
    .from(mailOutbox)
    .where(sql`lower(${mailOutbox.toAddress}) = ${address.trim().toLowerCase()}`)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.seq));
  return rows.map((row) => ({ subject: row.subject, text: row.textBody, html: row.htmlBody }));
}

/** The six-digit code of the newest letter to the address; fails when there is none. */
export async function latestCodeTo(testApp: Pick<TestApp, 'database'>, address: string) {
  const [letter] = await lettersTo(testApp, address);
  if (!letter) throw new Error(`no letter to ${address}`);
  return codeIn(letter.text);
}
