import type { Dispatch } from '@reduxjs/toolkit';
import { clearAccessToken, storeAccessToken } from '@/shared/api/token-storage';
import { requiresTwoFactorChanged, signedOut, tokenSet } from './auth-actions';
import { writeRequiresTwoFactor } from './two-factor-flag';

/** Storage first, then the store: requests made right after read the new token. */
export function signIn(token: string) {
  return (dispatch: Dispatch) => {
    storeAccessToken(token);
    dispatch(tokenSet(token));
  };
}

/** Drops the token locally (after a logout call, or when the server no longer accepts it). */
export function signOutLocally() {
  return (dispatch: Dispatch) => {
    clearAccessToken();
    writeRequiresTwoFactor(false);
    dispatch(signedOut());
  };
}

/** The account's second factor was switched on or off: the stored flag, then the store. */
export function setRequiresTwoFactor(value: boolean) {
  return (dispatch: Dispatch) => {
    writeRequiresTwoFactor(value);
    dispatch(requiresTwoFactorChanged(value));
  };
}
