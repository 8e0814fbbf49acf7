/**
 * Finding accounts for the support desk (modules/staff): what matched, beside each account.
 * For now over the exact `searchUsers` (id, e-mail, username, Telegram and Yandex ids); the
 * phone, the payment id and partial e-mails and names come with the full search.
 */
import type { StaffAccountHit } from '@portal/contracts/staff';
import type { Executor } from '../../db/database.js';
import { loginKeys } from './identity.js';
import { searchUsers, type UserRow } from './repository.js';

export interface AccountSearchHit {
  user: UserRow;
  matchedBy: StaffAccountHit['matchedBy'];
}

export async function searchAccounts(
  executor: Executor,
  query: string,
  page: { limit: number; offset: number },
): Promise<AccountSearchHit[]> {
  const text = query.trim();
  const rows = await searchUsers(executor, text, page.offset + page.limit);
  const keys = loginKeys(text);
  return rows.slice(page.offset).map((user) => ({ user, matchedBy: matchOf(user, text, keys) }));
}

function matchOf(
  user: UserRow,
  text: string,
  keys: ReturnType<typeof loginKeys>,
): StaffAccountHit['matchedBy'] {
  if (user.emailKey === keys.emailKey) return 'email';
  if (user.userNameKey === keys.userNameKey) return 'username';
  if (user.telegramId !== null && String(user.telegramId) === text) return 'telegram';
  return 'id';
}
