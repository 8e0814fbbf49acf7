import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchCurrentUser, selectUser } from '@/features/auth/user-slice';
import { notify } from '@/shared/ui/toast';
import { getCurrentBalances } from './api/get-current-balances';

/** The query parameter the checkout returns the browser with: `?topup=success` or `fail`. */
const TOP_UP_RETURN_PARAM = 'topup';

// The bank's notification usually lands within seconds of the redirect; this covers a slow one.
const POLL_INTERVAL_MS = 1500;
const POLL_ATTEMPTS = 20;

/**
 * After the checkout sends the browser back, the money arrives by the provider's notification, not
 * with the redirect. This says how the payment went, then watches the balances for a while and
 * reloads the user once they move, so the new balance shows without a manual reload.
 */
export function useTopUpReturn() {
  const [searchParams, setSearchParams] = useSearchParams();
  const outcome = searchParams.get(TOP_UP_RETURN_PARAM);
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const [isWatching, setIsWatching] = useState(false);
  const handledRef = useRef<string | null>(null);

  useEffect(() => {
    if (outcome === null || handledRef.current === outcome) return;
    handledRef.current = outcome;
    // Drop the marker so a reload or a shared link does not repeat the message.
    setSearchParams(
      (params) => {
        params.delete(TOP_UP_RETURN_PARAM);
        return params;
      },
      { replace: true },
    );
    if (outcome === 'success') {
      notify.success('Платёж принят. Баланс обновится после подтверждения банка');
      setIsWatching(true);
    } else {
      notify.error('Оплата не завершена. Баланс не изменился');
    }
  }, [outcome, setSearchParams]);

  const balance = user?.balance;
  const stars = user?.balanceStars;
  useEffect(() => {
    // Wait for the user to load: its balances are what "moved" is measured against.
    if (!isWatching || balance === undefined) return;
    const controller = new AbortController();
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async () => {
      attempts += 1;
      try {
        const fresh = await getCurrentBalances(controller.signal);
        if (fresh.balance !== balance || fresh.balanceStars !== stars) {
          setIsWatching(false);
          void dispatch(fetchCurrentUser());
          return;
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (attempts < POLL_ATTEMPTS) timer = setTimeout(check, POLL_INTERVAL_MS);
      else setIsWatching(false);
    };
    timer = setTimeout(check, POLL_INTERVAL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [isWatching, balance, stars, dispatch]);
}
