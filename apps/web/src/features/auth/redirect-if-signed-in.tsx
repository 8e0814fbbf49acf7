import { Navigate, Outlet, useSearchParams } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectIsAuth } from './auth-slice';

/**
 * A signed-in user opening /auth goes home, except when /auth has work to do: `yandexCode` (the
 * return of a Yandex ID sign-in begun in this browser), `link` (the hand-off to a sibling site) or
 * `interaction` (a brand site's OpenID sign-in).
 */
export function RedirectIfSignedIn() {
  const isAuth = useAppSelector(selectIsAuth);
  const [searchParams] = useSearchParams();
  const hasWork = ['yandexCode', 'link', 'interaction'].some((name) => searchParams.has(name));
  if (isAuth && !hasWork) return <Navigate to={paths.home.getHref()} replace />;
  return <Outlet />;
}
