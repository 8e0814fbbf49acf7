import { REDIRECT_DELAY_MS } from '@portal/contracts/constants';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { toApiFailure } from '@/shared/api/api-failure';
import { postHandOff } from './api/hand-off';
import { signOutLocally } from './auth-session';
import { selectIsAuth } from './auth-slice';

export type HandOffState =
  | { phase: 'idle' }
  /** Asking the server for a hand-off code; nothing is shown yet (the link may be refused). */
  | { phase: 'requesting' }
  /** The full-screen notice is up; the browser leaves after 500 ms. */
  | { phase: 'redirecting'; host: string };

/**
 * `/auth?link=…` for a signed-in user: the server turns the link into one carrying a fresh
 * single-use code, and only for allow-listed origins. A refused link is ignored: the user simply
 * goes home. A visitor who is not signed in sees the forms first; signing in starts the hand-off.
 */
export function useSsoHandOff(link: string | null): HandOffState {
  const isAuth = useAppSelector(selectIsAuth);
  const dispatch = useAppDispatch();
  // `navigate` changes with every location change; the hand-off (and its 500 ms timer) must not
  // restart because of that, only when the link or the sign-in state changes.
  const currentNavigate = useNavigate();
  const navigate = useRef(currentNavigate);
  navigate.current = currentNavigate;
  const [state, setState] = useState<HandOffState>({ phase: 'idle' });

  useEffect(() => {
    if (!link || !isAuth) {
      setState((current) => (current.phase === 'idle' ? current : { phase: 'idle' }));
      return;
    }
    let isCancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ phase: 'requesting' });
    postHandOff(link)
      .then(({ url }) => {
        if (isCancelled) return;
        setState({ phase: 'redirecting', host: new URL(url).host });
        timer = setTimeout(() => window.location.assign(url), REDIRECT_DELAY_MS);
      })
      .catch((error: unknown) => {
        if (isCancelled) return;
        if (toApiFailure(error).status === 401) {
          // The stored token is dead: sign in again, and the hand-off follows.
          dispatch(signOutLocally());
          return;
        }
        void navigate.current(paths.home.getHref(), { replace: true });
      });
    return () => {
      isCancelled = true;
      clearTimeout(timer);
    };
  }, [link, isAuth, dispatch]);

  return state;
}
