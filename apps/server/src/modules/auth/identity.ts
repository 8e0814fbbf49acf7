/**
 * How logins are compared (issue 3): e-mails trimmed and lower-cased; usernames NFKC-normalised
 * (so look-alikes such as full-width letters collapse) and lower-cased. The `*_key` columns of
 * `users` hold these forms and carry the unique indexes.
 */
import { cyrillicPattern } from '@portal/contracts/common';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '@portal/contracts/constants';
import {
  USERNAME_FORBIDDEN_CHARACTERS,
  USERNAME_HAS_CYRILLIC,
  USERNAME_TOO_LONG,
  USERNAME_TOO_SHORT,
} from '@portal/contracts/messages';
import { invalidInput } from '../../http/app-error.js';

export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

export function userNameKey(userName: string): string {
  return userName.normalize('NFKC').toLowerCase();
}

/** The key a login form's value is looked up by, for either column. */
export function loginKeys(usernameOrEmail: string) {
  const trimmed = usernameOrEmail.trim();
  return { emailKey: emailKey(trimmed), userNameKey: userNameKey(trimmed) };
}

// Control, format (zero-width joiners, direction marks), unassigned and private-use characters.
const INVISIBLE = /\p{C}/u;
const WHITESPACE = /\s/u;

/**
 * The username rules after normalisation, because NFKC can turn an accepted string into one
 * the schema would refuse (a full-width 'Ａ' is 'A'; some ligatures grow in length). '@' is
 * refused because login accepts a username or an e-mail in one field.
 * Answers the username to store (NFKC form, case kept) or throws a 400 under `field`.
 */
export function normalizeUserName(raw: string, field = 'username'): string {
  const userName = raw.replace(/\s+/g, '').normalize('NFKC');
  const problem = (() => {
    if (cyrillicPattern.test(userName)) return USERNAME_HAS_CYRILLIC;
    if (userName.includes('@') || INVISIBLE.test(userName) || WHITESPACE.test(userName)) {
      return USERNAME_FORBIDDEN_CHARACTERS;
    }
    const length = [...userName].length;
    if (length < USERNAME_MIN_LENGTH) return USERNAME_TOO_SHORT;
    if (length > USERNAME_MAX_LENGTH) return USERNAME_TOO_LONG;
    return null;
  })();
  if (problem) throw invalidInput(problem, { [field]: [problem] });
  return userName;
}
