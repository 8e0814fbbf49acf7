import { ACCESS_TOKEN_STORAGE_KEY } from '@portal/contracts/constants';
import type { Dispatch, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { onSessionRefused } from '@/shared/api/http';
import {
  isSessionEndedMarked,
  markSessionEnded,
  readAccessToken,
} from '@/shared/api/token-storage';
import { sessionEndNoticed, signedOut, tokenSet } from './auth-actions';
import { signOutLocally } from './auth-session';
import { fetchCurrentUser } from './user-slice';

type GetState = () => { auth: { token: string | null } };

/**
 * Pages a signed-out visitor may stay on: a session's end leaves them where they are (the
 * protected pages send the visitor to /auth on their own, and so does `leaveForAuth`).
 */
const PUBLIC_PATHS: ReadonlySet<string> = new Set([
  paths.auth.path,
  paths.resetPassword.path,
  paths.notMe.path,
  paths.cancelDeletion.path,
  paths.oauth.path,
]);

/**
 * A `storage` event about the access token: another tab of this browser stored, replaced or
 * removed it (`key` null: that tab cleared the whole storage).
 */
export function isTokenChange(event: Pick<StorageEvent, 'key'>): boolean {
  return event.key === ACCESS_TOKEN_STORAGE_KEY || event.key === null;
}

/**
 * Another tab changed the stored token, which is `stored` now. Signed out there: signed out here
 * (the same reset as a logout's). Another session there: this tab's state of the old one goes and
 * the new one is taken. A first sign-in there: taken here. Answers whether the tab must leave
 * for /auth (it was signed in with another token).
 */
export function followStoredToken(stored: string | null) {
  return (dispatch: Dispatch, getState: GetState): boolean => {
    const current = getState().auth.token;
    if (stored === current) return false;
    // Storage holds what the other tab left (and cleared its flags), so only the state resets.
    if (current !== null) dispatch(signedOut());
    if (stored !== null) dispatch(tokenSet(stored));
    // The server refused the session there: /auth says why here too.
    else if (current !== null && isSessionEndedMarked()) dispatch(sessionEndNoticed());
    return current !== null;
  };
}

/**
 * The server refused `sentToken` (a 401 to a request that carried it): signed out, and /auth will
 * say why. Once: the parallel refusals of the same token find it gone already, and a token stored
 * since (a new sign-in, here or in another tab) is left alone. Answers whether the tab must leave for /auth.
 */
export function endRefusedSession(sentToken: string) {
  return (dispatch: Dispatch, getState: GetState): boolean => {
    // A token stored since, by this tab or another (whose event may not have come yet), stays.
    const stored = readAccessToken();
    if (stored !== null ? stored !== sentToken : getState().auth.token !== sentToken) return false;
    // The mark first: the other tabs read it when told that the token is gone.
    markSessionEnded();
    signOutLocally()(dispatch);
    dispatch(sessionEndNoticed());
    return true;
  };
}

/**
 * After a change that may have ended this browser's session on the server (a password reset that
 * signed out everywhere, made on a public page): the server is asked once, and a refusal signs out
 * this tab and, through storage, every other. Signed out already: nothing to ask.
 */
export function recheckSession() {
  return (dispatch: ThunkDispatch<unknown, unknown, UnknownAction>, getState: GetState): void => {
    if (getState().auth.token !== null) void dispatch(fetchCurrentUser());
  };
}

/**
 * Every tab knows when the session ends: subscribes, once for the app, to the other tabs' changes
 * of the stored token and to the server's refusals of it, and sends the tab to /auth.
 */
export function useSessionWatch(): void {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  useEffect(() => {
    const leaveForAuth = (hasLeft: boolean) => {
      if (hasLeft && !PUBLIC_PATHS.has(window.location.pathname)) {
        void navigateRef.current(paths.auth.getHref(), { replace: true });
      }
    };
    const onStorage = (event: StorageEvent) => {
      if (isTokenChange(event)) leaveForAuth(dispatch(followStoredToken(readAccessToken())));
    };
    window.addEventListener('storage', onStorage);
    onSessionRefused((sentToken) => leaveForAuth(dispatch(endRefusedSession(sentToken))));
    return () => {
      window.removeEventListener('storage', onStorage);
      onSessionRefused(null);
    };
  }, [dispatch]);
}
