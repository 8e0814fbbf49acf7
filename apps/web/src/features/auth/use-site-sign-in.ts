import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { toApiFailure } from '@/shared/api/api-failure';
import { notify } from '@/shared/ui/toast';
import { postSiteSignIn } from './api/site-sign-in';
import { signOutLocally } from './auth-session';
import { selectIsAuth } from './auth-slice';
import { logoutUser } from './auth-thunks';

export type SiteSignInState =
  | { phase: 'idle' }
  /** Finishing the site's sign-in, then leaving for it. */
  | { phase: 'finishing' };

/**
 * `/auth?interaction=…`: a brand site asked the portal's OpenID provider to sign the person in.
 * Once signed in here (or already), the session finishes the site's sign-in and the browser goes
 * back into it (apps/server/src/modules/oidc). A site that wants a fresher sign-in than this
 * session ends it: the forms come back, and signing in again finishes the site's sign-in. Any
 * other refusal is told in a toast, and the person stays in the portal.
 */
export function useSiteSignIn(interaction: string | null): SiteSignInState {
  const isAuth = useAppSelector(selectIsAuth);
  const dispatch = useAppDispatch();
  // `navigate` changes with every location change; the call must not be made again for that.
  const currentNavigate = useNavigate();
  const navigate = useRef(currentNavigate);
  navigate.current = currentNavigate;
  const [state, setState] = useState<SiteSignInState>({ phase: 'idle' });

  useEffect(() => {
    if (!interaction || !isAuth) {
      setState((current) => (current.phase === 'idle' ? current : { phase: 'idle' }));
      return;
    }
    let isCancelled = false;
    setState({ phase: 'finishing' });
    postSiteSignIn(interaction)
      .then(({ url }) => {
        if (!isCancelled) window.location.assign(url);
      })
      .catch((error: unknown) => {
        if (isCancelled) return;
        const failure = toApiFailure(error);
        if (failure.status === 401) {
          // The stored token is dead: sign in again, and the site's sign-in follows.
          dispatch(signOutLocally());
          return;
        }
        notify.error(failure.text);
        if (failure.reason === 'sign_in_again') {
          void dispatch(logoutUser());
          return;
        }
        void navigate.current(paths.home.getHref(), { replace: true });
      });
    return () => {
      isCancelled = true;
    };
  }, [interaction, isAuth, dispatch]);

  return state;
}
