import { SECURITY_LOG_PAGE_SIZE, type SecurityEvent } from '@portal/contracts/security-log';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiFailure } from '@/shared/api/api-failure';
import { notify } from '@/shared/ui/toast';
import { getSecurityLog } from './api/get-security-log';

type LogState = {
  events: SecurityEvent[];
  nextCursor: string | null;
  status: 'loading' | 'loadingMore' | 'ready' | 'failed';
};

/**
 * The log as the page shows it: the first page on opening, then «Показать ещё» appends the next.
 * Only this page reads it, so it lives as long as the page (no slice); a failed load says why in
 * a toast, a load given up by leaving the page says nothing.
 */
export function useSecurityLog() {
  const [state, setState] = useState<LogState>({ events: [], nextCursor: null, status: 'loading' });
  const more = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    getSecurityLog({ limit: SECURITY_LOG_PAGE_SIZE }, controller.signal).then(
      (page) => setState({ events: page.data, nextCursor: page.nextCursor, status: 'ready' }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((previous) => ({ ...previous, status: 'failed' }));
        notify.error(toApiFailure(error).text);
      },
    );
    return () => {
      controller.abort();
      more.current?.abort();
    };
  }, []);

  const loadMore = useCallback(() => {
    if (!state.nextCursor || state.status !== 'ready') return;
    const controller = new AbortController();
    more.current = controller;
    setState((previous) => ({ ...previous, status: 'loadingMore' }));
    getSecurityLog(
      { limit: SECURITY_LOG_PAGE_SIZE, cursor: state.nextCursor },
      controller.signal,
    ).then(
      (page) =>
        setState((previous) => ({
          events: [...previous.events, ...page.data],
          nextCursor: page.nextCursor,
          status: 'ready',
        })),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((previous) => ({ ...previous, status: 'ready' }));
        notify.error(toApiFailure(error).text);
      },
    );
  }, [state.nextCursor, state.status]);

  return {
    events: state.events,
    isLoading: state.status === 'loading',
    isLoadingMore: state.status === 'loadingMore',
    hasMore: state.nextCursor !== null && state.status !== 'loading',
    loadMore,
  };
}
