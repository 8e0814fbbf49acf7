import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectIsAuth } from './auth-slice';
import { fetchCurrentUser, selectUserStatus } from './user-slice';

/**
 * Protected routes: no token → /auth. With a token and no user loaded yet, the current user is
 * fetched, as on every app start; a 401 there drops the token and lands here again.
 */
export function RequireAuth() {
  const isAuth = useAppSelector(selectIsAuth);
  const userStatus = useAppSelector(selectUserStatus);
  const dispatch = useAppDispatch();

  useEffect(() => {
    if (isAuth && userStatus === 'idle') void dispatch(fetchCurrentUser());
  }, [isAuth, userStatus, dispatch]);

  if (!isAuth) return <Navigate to={paths.auth.getHref()} replace />;
  return <Outlet />;
}
