/**
 * What the provider tells a client about an account: `sub` is the account's id; the `profile`
 * and `email` scopes add the names, the avatar and the address. An account that may not sign in
 * (blocked, not confirmed, erased) is no account to the provider: its tokens stop answering.
 */
import type { Account } from 'oidc-provider';
import type { Db } from '../../db/database.js';
import { findUserById, type UserRow } from '../accounts/index.js';

export function mayUseSites(user: UserRow | undefined): user is UserRow {
  return Boolean(user && !user.blockedAt && user.confirmedAt && user.status === 'active');
}

export async function findAccount(
  deps: { db: Db; publicUrl: string },
  sub: string,
): Promise<Account | undefined> {
  // Not an id at all (a token of another issuer, say): no account, rather than a database error.
  if (!/^[0-9a-f-]{36}$/i.test(sub)) return undefined;
  const user = await findUserById(deps.db, sub);
  if (!mayUseSites(user)) return undefined;
  return {
    accountId: user.id,
    claims: () => claimsOf(user, deps.publicUrl),
  };
}

function claimsOf(user: UserRow, publicUrl: string) {
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
