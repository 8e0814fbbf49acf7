import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchCurrentUser, selectUser } from '@/features/auth';
import { notify } from '@/shared/ui/toast';

/** The query parameter the checkout returns the browser with: `?topup=success` or `fail`. */
const TOP_UP_RETURN_PARAM = 'topup';

// The bank's notification usually lands within seconds of the redirect; this covers a slow one.
const POLL_INTERVAL_MS = 1500;
const POLL_ATTEMPTS = 20;

/**
 * After the checkout sends the browser back, the money arrives by the provider's notification, not
 * with the redirect. This says how the payment went, then reloads the user for a while until its
 * balances move, so the new balance shows without a manual reload.
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

  const hasUser = user !== null;
  // The balances the watch measures "moved" against: the user's when the watch began.
  const startRef = useRef<{ balance: number; stars: number } | null>(null);
  startRef.current =
    isWatching && user
      ? (startRef.current ?? { balance: user.balance, stars: user.balanceStars })
      : null;
  useEffect(() => {
    // Wait for the user to load: its balances are what "moved" is measured against.
    const start = startRef.current;
    if (!isWatching || !hasUser || !start) return;
    let isStopped = false;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The app's one user client reloads the user; the page keeps showing it meanwhile.
    const check = async () => {
      attempts += 1;
      try {
        const fresh = await dispatch(fetchCurrentUser()).unwrap();
        if (isStopped) return;
        if (fresh.balance !== start.balance || fresh.balanceStars !== start.stars) {
          setIsWatching(false);
          return;
        }
      } catch {
        if (isStopped) return;
      }
      if (attempts < POLL_ATTEMPTS) timer = setTimeout(check, POLL_INTERVAL_MS);
      else setIsWatching(false);
    };
    timer = setTimeout(check, POLL_INTERVAL_MS);
    return () => {
      isStopped = true;
      clearTimeout(timer);
    };
  }, [isWatching, hasUser, dispatch]);
}
