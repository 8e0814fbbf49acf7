import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { errorText } from '@/shared/api/error-text';
import { notify } from '@/shared/ui/toast';
import { postYandexExchange } from './api/exchange-yandex-code';
import { signIn } from './auth-session';

/**
 * `/auth?yandexCode=…`, where the Yandex ID callback ends (docs/decisions/0009): the one-time
 * code becomes a session only in the browser that began the sign-in, then the user goes home.
 * A refused code is a toast and the forms stay. Answers whether an exchange is under way.
 */
export function useYandexCodeExchange(): boolean {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const code = searchParams.get('yandexCode');
  // A code is good once: the second run of an effect (React's StrictMode) must not spend it again.
  const exchanged = useRef<string | null>(null);

  useEffect(() => {
    if (!code || exchanged.current === code) return;
    exchanged.current = code;
    postYandexExchange(code)
      .then(({ token }) => {
        dispatch(signIn(token));
        void navigate(paths.home.getHref(), { replace: true });
      })
      .catch((error: unknown) => {
        notify.error(errorText(error));
        setSearchParams(
          (current) => {
            const rest = new URLSearchParams(current);
            rest.delete('yandexCode');
            return rest;
          },
          { replace: true },
        );
      });
  }, [code, dispatch, navigate, setSearchParams]);

  return code !== null;
}
