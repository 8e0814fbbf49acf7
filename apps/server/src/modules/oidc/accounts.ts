/**
 * What the provider tells a client about an account: `sub` is the account's id; the `profile`
 * and `email` scopes add the names, the avatar and the address. An account that may not sign in
 * (blocked, not confirmed, erased) is no account to the provider: its tokens stop answering.
 */
import type { Account } from 'oidc-provider';
import type { Db } from '../../db/database.js';
import type { UserReadCache } from '../../db/user-reads.js';
import { findUserById, type UserRow } from '../accounts/index.js';

/** The account's fields the provider uses: its state and its claims, no secret. */
export type SiteAccount = Pick<
  UserRow,
  | 'id'
  | 'status'
  | 'blockedAt'
  | 'confirmedAt'
  | 'userName'
  | 'firstName'
  | 'lastName'
  | 'avatarUrl'
  | 'email'
>;

export interface SiteAccountDeps {
  db: Db;
  userReads: Pick<UserReadCache, 'read'>;
}

/**
 * The account as the provider reads it, remembered by this process like the portal's own reads
 * of an account (db/user-reads.ts: forgotten when the database announces a change of the
 * account). A sign-in through the provider reads it four times (the bridge, the resume, the code
 * exchange, userinfo); once from the database. A block or a deletion reaches every process with
 * that announcement, and it ends the account's grants in its own transaction anyway (the
 * grant, read from the database by the library, is gone).
 */
export function siteAccountOf(
  deps: SiteAccountDeps,
  userId: string,
): Promise<SiteAccount | undefined> {
  return deps.userReads.read(userId, 'oidc-account', async () => {
    const user = await findUserById(deps.db, userId);
    if (!user) return undefined;
    const { id, status, blockedAt, confirmedAt, userName, firstName, lastName, avatarUrl, email } =
      user;
    return { id, status, blockedAt, confirmedAt, userName, firstName, lastName, avatarUrl, email };
  });
}

export function mayUseSites(user: SiteAccount | undefined): user is SiteAccount {
  return Boolean(user && !user.blockedAt && user.confirmedAt && user.status === 'active');
}

export async function findAccount(
  deps: SiteAccountDeps & { publicUrl: string },
  sub: string,
): Promise<Account | undefined> {
  // Not an id at all (a token of another issuer, say): no account, rather than a database error.
  if (!/^[0-9a-f-]{36}$/i.test(sub)) return undefined;
  const user = await siteAccountOf(deps, sub);
  if (!mayUseSites(user)) return undefined;
  return {
    accountId: user.id,
    claims: () => claimsOf(user, deps.publicUrl),
  };
}

function claimsOf(user: SiteAccount, publicUrl: string) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(' ');
  return {
    sub: user.id,
    preferred_username: user.userName,
    ...(name ? { name } : {}),
    ...(user.firstName ? { given_name: user.firstName } : {}),
    ...(user.lastName ? { family_name: user.lastName } : {}),
    // Uploads are addressed from the portal's root unless they live on S3's public address.
    ...(user.avatarUrl ? { picture: new URL(user.avatarUrl, publicUrl).href } : {}),
    email: user.email,
    email_verified: user.confirmedAt !== null,
  };
}
