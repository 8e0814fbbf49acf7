import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { type ApiFailure, toApiFailure } from '@/shared/api/api-failure';
import { notify } from '@/shared/ui/toast';
import { postYandexExchange } from './api/exchange-yandex-code';
import { setRequiresTwoFactor, signIn } from './auth-session';

export type YandexCodeExchange = {
  /** `exchanging`: the code is on its way; `second-factor`: the account's code is asked for. */
  phase: 'none' | 'exchanging' | 'second-factor';
  /** Sends the second factor with the code; answers the refusal (a wrong code), else null. */
  submitSecondFactor: (twoFactorCode: string) => Promise<ApiFailure | null>;
  /** Back to the forms: the code is dropped from the address. */
  cancel: () => void;
};

/**
 * `/auth?yandexCode=…`, where the Yandex ID callback ends (docs/decisions/0009): the one-time
 * code becomes a session only in the browser that began the sign-in, then the user goes home. An
 * account with the authenticator on is asked for its code first, as the password sign-in asks
 * (the code stays in the address meanwhile, so a reload asks again). A refused code is a toast
 * and the forms stay.
 */
export function useYandexCodeExchange(): YandexCodeExchange {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const code = searchParams.get('yandexCode');
  const [isSecondFactorAsked, setIsSecondFactorAsked] = useState(false);
  // A code is good once: the second run of an effect (React's StrictMode) must not spend it again.
  const exchanged = useRef<string | null>(null);

  const dropCode = useCallback(() => {
    setIsSecondFactorAsked(false);
    setSearchParams(
      (current) => {
        const rest = new URLSearchParams(current);
        rest.delete('yandexCode');
        return rest;
      },
      { replace: true },
    );
  }, [setSearchParams]);

  const finish = useCallback(
    (token: string, withSecondFactor: boolean) => {
      dispatch(signIn(token));
      if (withSecondFactor) dispatch(setRequiresTwoFactor(true));
      void navigate(paths.home.getHref(), { replace: true });
    },
    [dispatch, navigate],
  );

  useEffect(() => {
    if (!code || exchanged.current === code) return;
    exchanged.current = code;
    postYandexExchange(code)
      .then((answer) => {
        if ('token' in answer) finish(answer.token, false);
        else setIsSecondFactorAsked(true);
      })
      .catch((error: unknown) => {
        notify.error(toApiFailure(error).text);
        dropCode();
      });
  }, [code, finish, dropCode]);

  async function submitSecondFactor(twoFactorCode: string): Promise<ApiFailure | null> {
    if (!code) return null;
    try {
      const answer = await postYandexExchange(code, twoFactorCode);
      if ('token' in answer) finish(answer.token, true);
      return null;
    } catch (error) {
      const failure = toApiFailure(error);
      // A wrong second factor: the step stays for another try. Anything else ends the flow.
      if (!failure.errors.twoFactorCode) {
        notify.error(failure.text);
        if (failure.status !== 429) dropCode();
      }
      return failure;
    }
  }

  const phase = !code ? 'none' : isSecondFactorAsked ? 'second-factor' : 'exchanging';
  return { phase, submitSecondFactor, cancel: dropCode };
}
