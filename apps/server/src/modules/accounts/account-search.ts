/**
 * Support's account search: the staff page's (`GET …/accounts`, modules/staff) and the operator
 * tool's `find` (modules/operator), the same function so both find the same accounts.
 *
 * Exact first: the account's id (or its Yandex ID, shown as 'id': the account's id at Yandex),
 * e-mail and username (case-insensitive, by the keys of identity.ts), phone, Telegram id, and
 * the payment another module's id names (`AccountSearch.addReference`). Then, when a word of the query
 * has at least PARTIAL_MIN_LENGTH characters, the accounts whose e-mail, username or names hold
 * every word of it, case-insensitively ('partial'). Each group newest first; the pages run over
 * the exact hits and then the partial ones.
 */
import type { StaffAccountHit } from '@portal/contracts/staff';
import { and, desc, eq, inArray, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/database.js';
import { loginKeys } from './identity.js';
import { type UserRow, users } from './schema.js';

export interface AccountSearchHit {
  user: UserRow;
  matchedBy: StaffAccountHit['matchedBy'];
}

/** The shortest word a partial search looks for: trigrams need three characters to use the index. */
export const PARTIAL_MIN_LENGTH = 3;

/**
 * How another module's identifier names accounts: a payment's id (ours or the provider's) names
 * the account that paid. The module owning the identifier depends on this one (payments posts
 * to the balances here), so this one cannot import it: that module hands its lookup to the
 * search when its plugin registers (payments/plugin.ts), as a later module hands a hook to an
 * earlier one (`app.deps.accountSearch`). Until it is handed over, nothing is found by that kind.
 */
export interface AccountReference {
  matchedBy: Extract<StaffAccountHit['matchedBy'], 'payment'>;
  /** The ids of the accounts `text` names; none when it names nothing. */
  ownersOf(executor: Executor, text: string): Promise<string[]>;
}

/** The one search of an app (`app.deps.accountSearch`), with the references handed to it. */
export class AccountSearch {
  private readonly references = new Map<AccountReference['matchedBy'], AccountReference>();

  /** Registers (or replaces) the lookup of one kind of reference. */
  addReference(reference: AccountReference): void {
    this.references.set(reference.matchedBy, reference);
  }

  /**
   * Accounts `query` names: exact matches first, then partial ones, each group newest first,
   * paged by `limit` and `offset` over the whole list. A query of one or two characters (or of
   * short words only) finds exact matches only.
   */
  search(
    executor: Executor,
    query: string,
    page: { limit: number; offset: number },
  ): Promise<AccountSearchHit[]> {
    return searchAccounts(executor, query, page, [...this.references.values()]);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TELEGRAM_ID = /^\d{1,15}$/;

/**
 * The forms a phone typed by support may be stored in: the Telegram bot stores '+' and the digits
 * ('+79001234567'). A Russian number written with the trunk prefix 8 or without the country code
 * ('8 900 123-45-67', '900 123 45 67') is also looked for as +7…. None when it is not a phone.
 */
export function phoneForms(text: string): string[] {
  if (!/^\+?[\d\s().-]+$/.test(text)) return [];
  const digits = text.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return [];
  const forms = new Set([`+${digits}`]);
  if (digits.length === 11 && digits.startsWith('8')) forms.add(`+7${digits.slice(1)}`);
  if (digits.length === 10 && digits.startsWith('9')) forms.add(`+7${digits}`);
  return [...forms];
}

/**
 * The text a partial search looks in. The same expression, character for character, as the
 * trigram index of migrations/0805_account_search.sql, or the planner does not use the index.
 */
export const SEARCHED_TEXT = sql`lower(${users.email} || ' ' || ${users.userName} || ' ' || ${users.lastName} || ' ' || ${users.firstName} || ' ' || ${users.middleName})`;

/** A LIKE pattern holding `word` literally: '%' and '_' in a query are characters, not wildcards. */
function containing(word: string): string {
  return `%${word.replace(/[\\%_]/g, '\\$&')}%`;
}

const NEWEST_FIRST = [desc(users.createdAt), desc(users.id)];

/** The accounts `query` names exactly, newest first, each with what matched. */
async function exactHits(
  executor: Executor,
  text: string,
  references: AccountReference[],
): Promise<AccountSearchHit[]> {
  const keys = loginKeys(text);
  const id = UUID.test(text) ? text.toLowerCase() : null;
  const telegramId = TELEGRAM_ID.test(text) ? Number(text) : null;
  const phones = phoneForms(text);
  const referenced = new Map<string, AccountReference['matchedBy']>();
  for (const reference of references) {
    for (const owner of await reference.ownersOf(executor, text)) {
      if (!referenced.has(owner)) referenced.set(owner, reference.matchedBy);
    }
  }
  const conditions: (SQL | undefined)[] = [
    eq(users.emailKey, keys.emailKey),
    eq(users.userNameKey, keys.userNameKey),
    eq(users.yandexId, text),
    id ? eq(users.id, id) : undefined,
    telegramId !== null ? eq(users.telegramId, telegramId) : undefined,
    phones.length > 0 ? inArray(users.phone, phones) : undefined,
    referenced.size > 0 ? inArray(users.id, [...referenced.keys()]) : undefined,
  ];
  const rows = await executor
    .select()
    .from(users)
    .where(or(...conditions))
    .orderBy(...NEWEST_FIRST);
  // What matched, in the order of the contract's kinds: the account's own identifiers first.
  const matchedBy = (user: UserRow): AccountSearchHit['matchedBy'] => {
    if (user.id === id || user.yandexId === text) return 'id';
    if (user.emailKey === keys.emailKey) return 'email';
    if (user.userNameKey === keys.userNameKey) return 'username';
    if (user.phone !== null && phones.includes(user.phone)) return 'phone';
    if (telegramId !== null && user.telegramId === telegramId) return 'telegram';
    return referenced.get(user.id) ?? 'id';
  };
  return rows.map((user) => ({ user, matchedBy: matchedBy(user) }));
}

async function searchAccounts(
  executor: Executor,
  query: string,
  page: { limit: number; offset: number },
  references: AccountReference[],
): Promise<AccountSearchHit[]> {
  const text = query.trim();
  if (!text || page.limit <= 0) return [];
  const exact = await exactHits(executor, text, references);
  const hits = exact.slice(page.offset, page.offset + page.limit);
  const words = text.split(/\s+/);
  const room = page.limit - hits.length;
  if (room === 0 || !words.some((word) => word.length >= PARTIAL_MIN_LENGTH)) return hits;

  const rows = await executor
    .select()
    .from(users)
    .where(
      and(
        // lower() in the database on both sides: the one case folding of the index.
        ...words.map((word) => sql`${SEARCHED_TEXT} LIKE lower(${containing(word)})`),
        exact.length > 0
          ? notInArray(
              users.id,
              exact.map((hit) => hit.user.id),
            )
          : undefined,
      ),
    )
    .orderBy(...NEWEST_FIRST)
    .limit(room)
    .offset(Math.max(0, page.offset - exact.length));
  return [...hits, ...rows.map((user) => ({ user, matchedBy: 'partial' as const }))];
}
