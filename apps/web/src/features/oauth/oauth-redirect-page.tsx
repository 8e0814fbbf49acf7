import { useEffect } from 'react';
import { runtimeConfig } from '@/config/runtime-config';
import { PageLoader } from '@/shared/ui/page-loader';
import { yandexCallbackUrl } from './yandex-callback-url';

/** /oauth: forwards the third-party sign-in answer to the API at once. */
export function OAuthRedirectPage() {
  useEffect(() => {
    // replace(): the fragment holds a provider token; keep it out of the history.
    window.location.replace(yandexCallbackUrl(runtimeConfig.apiBaseUrl, window.location.hash));
  }, []);
  return <PageLoader />;
}
