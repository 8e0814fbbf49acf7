/**
 * Server-side password rules on top of the length-and-letters rule, which the request schema
 * (`passwordSchema` of @portal/contracts/common) already checks:
 * not one of the most common passwords, and not the username or the e-mail.
 *
 *   const problem = passwordPolicyProblem(password, { userName, email });   // message or null
 *   assertPasswordAllowed(password, { userName, email }, 'newPassword');   // 400 under that field
 */

import { PASSWORD_EQUALS_LOGIN, PASSWORD_TOO_COMMON } from '@portal/contracts/messages';
import { dictionary } from '@zxcvbn-ts/language-common';
import { invalidInput } from '../../http/app-error.js';

/**
 * The list: zxcvbn-ts's common-password dictionary (about 49,000 entries drawn from leaked
 * password corpora, all lower-case). Compared case-insensitively, so that 'Password1' — which
 * satisfies the length-and-letters rule — is refused because 'password1' is on it.
 */
let blocklist: Set<string> | undefined;

export function commonPasswords(): ReadonlySet<string> {
  blocklist ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase()));
  return blocklist;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

export function passwordPolicyProblem(
  password: string,
  identity: { userName?: string | null; email?: string | null },
): string | null {
  const lowered = password.toLowerCase();
  const equalsLogin = [identity.userName, identity.email].some(
    (value) => value && value.trim().toLowerCase() === lowered,
  );
  if (equalsLogin) return PASSWORD_EQUALS_LOGIN;
  if (isCommonPassword(password)) return PASSWORD_TOO_COMMON;
  return null;
}

export function assertPasswordAllowed(
  password: string,
  identity: { userName?: string | null; email?: string | null },
  field = 'password',
): void {
  const problem = passwordPolicyProblem(password, identity);
  if (problem) throw invalidInput(problem, { [field]: [problem] });
}
