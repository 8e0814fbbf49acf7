import { REQUIRES_TWO_FACTOR_STORAGE_KEY } from '@portal/contracts/constants';

/**
 * The `requiresTwoFactor` flag in localStorage: the account signs in with a second
 * factor. Set when the server asks for the code (so a reload keeps the code field) and by the
 * authenticator settings; cleared on sign-out. Storage may be disabled: never throws.
 */
export function readRequiresTwoFactor(): boolean {
  try {
    return localStorage.getItem(REQUIRES_TWO_FACTOR_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

export function writeRequiresTwoFactor(value: boolean): void {
  try {
    if (value) localStorage.setItem(REQUIRES_TWO_FACTOR_STORAGE_KEY, 'true');
    else localStorage.removeItem(REQUIRES_TWO_FACTOR_STORAGE_KEY);
  } catch {
    // Without storage the flag lives in the store only.
  }
}
