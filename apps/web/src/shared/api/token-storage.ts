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

export function storeAccessToken(token: string): void {
  localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, token);
}

export function clearAccessToken(): void {
  try {
    localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
  } catch {
    // Nothing stored, nothing to clear.
  }
}
