import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { runtimeConfig } from '@/config/runtime-config';
import { toApiFailure } from '@/shared/api/api-failure';
import { Button } from '@/shared/ui/button';
import { notify } from '@/shared/ui/toast';
import { getYandexUrl } from './api/get-yandex-url';
import styles from './yandex-login-button.module.css';

function YandexLogo() {
  return (
    <svg className={styles.logo} viewBox="0 0 24 24" aria-hidden="true">
      <circle cx="12" cy="12" r="12" fill="#FC3F1D" />
      <path
        fill="#fff"
        d="M13.32 7.666h-.924c-1.694 0-2.585.858-2.585 2.123 0 1.43.616 2.1 1.881 2.959l1.045.704-3.003 4.487H7.49l2.695-4.014c-1.55-1.111-2.42-2.19-2.42-4.015 0-2.288 1.595-3.85 4.62-3.85h3.003v11.868H13.32V7.666Z"
      />
    </svg>
  );
}

/**
 * "Войти с Яндекс ID" for the login tab: asks the server for the Yandex authorize address and
 * goes there; Yandex returns the browser through /oauth, and the server's callback ends on
 * /auth?yandexCode=… (exchanged for a session by the page) or /auth?yandexError=… (shown here as
 * a toast). Not shown when the server has no Yandex ID application (`isYandexOffered`).
 */
export function YandexLoginButton() {
  const [isLeaving, setIsLeaving] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();

  useEffect(() => {
    const error = searchParams.get('yandexError');
    if (!error) return;
    notify.error(error);
    const rest = new URLSearchParams(searchParams);
    rest.delete('yandexError');
    setSearchParams(rest, { replace: true });
  }, [searchParams, setSearchParams]);

  async function signIn() {
    setIsLeaving(true);
    try {
      window.location.assign(await getYandexUrl());
    } catch (error) {
      notify.error(toApiFailure(error).text);
      setIsLeaving(false);
    }
  }

  if (!runtimeConfig.isYandexOffered) return null;
  return (
    <Button
      variant="secondary"
      isFullWidth
      className={styles.button}
      disabled={isLeaving}
      aria-busy={isLeaving}
      onClick={() => void signIn()}
    >
      <YandexLogo />
      Войти с Яндекс ID
    </Button>
  );
}
