/**
 * How logins are compared: e-mails trimmed and lower-cased; usernames NFKC-normalised (so
 * look-alikes such as full-width letters collapse) and lower-cased. The `*_key` columns of
 * `users` hold these forms and carry the unique indexes.
 */
import { usernameCharactersProblem, withoutSpaces } from '@portal/contracts/common';
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH } from '@portal/contracts/constants';
import { USERNAME_TOO_LONG, USERNAME_TOO_SHORT } from '@portal/contracts/messages';
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

/**
 * The rules of a new or changed username, on the server too: spaces stripped (as the form strips
 * them), Latin letters, digits, '_', '.', '-' only ('@' is out, which keeps usernames apart from
 * e-mails in the one login field), 3–16 characters. Answers the username to store or throws a 400
 * under `field`. Names stored before the character rule keep working (`userNameKey` still folds
 * them with NFKC for login); they are checked again only when changed.
 */
export function normalizeUserName(raw: string, field = 'username'): string {
  const userName = withoutSpaces(raw);
  const problem = (() => {
    const characters = usernameCharactersProblem(userName);
    if (characters) return characters;
    if (userName.length < USERNAME_MIN_LENGTH) return USERNAME_TOO_SHORT;
    if (userName.length > USERNAME_MAX_LENGTH) return USERNAME_TOO_LONG;
    return null;
  })();
  if (problem) throw invalidInput(problem, { [field]: [problem] });
  return userName;
}
