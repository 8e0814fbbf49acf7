import { ACCESS_TOKEN_STORAGE_KEY } from '@portal/contracts/constants';

/**
 * The access token lives in localStorage under one fixed name, so sibling sites and older builds
 * of the portal agree on it. Reads never throw: storage can be disabled.
 */
export function readAccessToken(): string | null {
  try {
    return localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY) || null;
  } catch {
    return null;
  }
}

/**
 * Set, before the token is removed, when the server refused the session: the other tabs, told of
 * the removal by a `storage` event, read it to say why on /auth as well. A new token clears it.
 */
const SESSION_ENDED_KEY = 'sessionEnded';

/**
 * The token this tab is ending on purpose (a logout, «Выйти» on its own device row): the server's
 * refusals of it are expected, not a session ended elsewhere. One at a time; a new token clears it.
 */
let givenUpToken: string | null = null;

export function giveUpAccessToken(token: string): void {
  givenUpToken = token;
}

export function isAccessTokenGivenUp(token: string): boolean {
  return token === givenUpToken;
}

export function storeAccessToken(token: string): void {
  givenUpToken = null;
  localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, token);
  try {
    localStorage.removeItem(SESSION_ENDED_KEY);
  } catch {
    // Stored the token, so storage works; nothing to do.
  }
}

export function markSessionEnded(): void {
  try {
    localStorage.setItem(SESSION_ENDED_KEY, '1');
  } catch {
    // Without storage the other tabs go to /auth without the reason.
  }
}

export function isSessionEndedMarked(): boolean {
  try {
    return localStorage.getItem(SESSION_ENDED_KEY) !== null;
  } catch {
    return false;
  }
}

export function clearAccessToken(): void {
  try {
    localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
