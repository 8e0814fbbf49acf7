import { PASSKEY_MESSAGES } from '@portal/contracts/passkey-messages';
import type { PasskeyRequestOptions } from '@portal/contracts/passkeys';
import type { YandexExchangeAnswer } from '@portal/contracts/yandex';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { type ApiFailure, toApiFailure } from '@/shared/api/api-failure';
import { isPasskeyCancelled, signWithPasskey } from '@/shared/lib/webauthn';
import { notify } from '@/shared/ui/toast';
import { postYandexExchange } from './api/exchange-yandex-code';
import { setRequiresTwoFactor, signIn } from './auth-session';

export type YandexCodeExchange = {
  /** `exchanging`: the code is on its way; `second-factor`: the account's code is asked for. */
  phase: 'none' | 'exchanging' | 'second-factor';
  /** Sends the second factor with the code; answers the refusal (a wrong code), else null. */
  submitSecondFactor: (twoFactorCode: string) => Promise<ApiFailure | null>;
  /** Set when the step is the account's passkey (as the password sign-in asks it). */
  passkeyOptions: PasskeyRequestOptions | null;
  /** The browser's passkey dialog, then the code with its answer. */
  submitPasskey: () => Promise<void>;
  /** Back to the forms: the code is dropped from the address. */
  cancel: () => void;
};

/**
 * `/auth?yandexCode=…`, where the Yandex ID callback ends (docs/decisions/0009): the one-time
 * code becomes a session only in the browser that began the sign-in, then the user goes home. An
 * account with a second factor is asked for it first, as the password sign-in asks (the server's
 * one sign-in policy decides: the authenticator's code, or a passkey; the code stays in the
 * address meanwhile, so a reload asks again). A refused code is a toast and the forms stay.
 */
export function useYandexCodeExchange(): YandexCodeExchange {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const code = searchParams.get('yandexCode');
  const [isSecondFactorAsked, setIsSecondFactorAsked] = useState(false);
  const [passkeyOptions, setPasskeyOptions] = useState<PasskeyRequestOptions | null>(null);
  // A code is good once: the second run of an effect (React's StrictMode) must not spend it again.
  const exchanged = useRef<string | null>(null);

  const dropCode = useCallback(() => {
    setIsSecondFactorAsked(false);
    setPasskeyOptions(null);
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

  const askSecondFactor = useCallback(
    (answer: Exclude<YandexExchangeAnswer, { token: string }>) => {
      setPasskeyOptions(answer.passkeyOptions ?? null);
      setIsSecondFactorAsked(true);
    },
    [],
  );

  useEffect(() => {
    if (!code || exchanged.current === code) return;
    exchanged.current = code;
    postYandexExchange(code)
      .then((answer) => {
        if ('token' in answer) finish(answer.token, false);
        else askSecondFactor(answer);
      })
      .catch((error: unknown) => {
        notify.error(toApiFailure(error).text);
        dropCode();
      });
  }, [code, finish, dropCode, askSecondFactor]);

  async function submitPasskey(): Promise<void> {
    if (!code || !passkeyOptions) return;
    try {
      let passkey: Awaited<ReturnType<typeof signWithPasskey>>;
      try {
        passkey = await signWithPasskey(passkeyOptions);
      } catch (error) {
        if (!isPasskeyCancelled(error)) notify.error(PASSKEY_MESSAGES.signInFailed);
        return;
      }
      const answer = await postYandexExchange(code, { passkey });
      // The stored flag is the authenticator's (auth-session.ts), as after the password's step.
      if ('token' in answer) {
        finish(answer.token, false);
        return;
      }
    } catch (error) {
      const failure = toApiFailure(error);
      notify.error(failure.text);
      // A wrong passkey spent its challenge: fresh options for another try. Anything else ends.
      if (!failure.errors.passkey) {
        if (failure.status !== 429) dropCode();
        return;
      }
    }
    // Each dialog answers one challenge: ask for the next one while the step stays.
    try {
      const again = await postYandexExchange(code);
      if (!('token' in again)) askSecondFactor(again);
    } catch (error) {
      notify.error(toApiFailure(error).text);
      dropCode();
    }
  }

  async function submitSecondFactor(twoFactorCode: string): Promise<ApiFailure | null> {
    if (!code) return null;
    try {
      const answer = await postYandexExchange(code, { twoFactorCode });
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
  return { phase, submitSecondFactor, passkeyOptions, submitPasskey, cancel: dropCode };
}
