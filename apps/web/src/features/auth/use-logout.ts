import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { logoutUser } from './auth-thunks';

/**
 * Logout wherever the portal offers it (profile): the server call, the token removed, the state
 * reset, then /auth. Resolves once the user is signed out locally.
 */
export function useLogout(): () => Promise<void> {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    await dispatch(logoutUser());
    await navigate(paths.auth.getHref(), { replace: true });
  }, [dispatch, navigate]);
}
