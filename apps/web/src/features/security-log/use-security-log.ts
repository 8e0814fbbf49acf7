import { failureOf } from '@/shared/api/api-failure';
import { notify } from '@/shared/ui/toast';
import { useSecurityLogInfiniteQuery } from './api/security-log-api';

/**
 * The log as the page shows it: the first page on opening, then «Показать ещё» appends the next.
 * A first page that fails stands in the list's place with «Повторить» (`error`, `retry`); a next
 * page that fails says why in a toast, and the pages shown stay.
 */
export function useSecurityLog() {
  const log = useSecurityLogInfiniteQuery();
  const events = log.data?.pages.flatMap((page) => page.data) ?? [];
  const hasFailed = log.isError && !log.isFetching && log.data === undefined;

  async function loadMore() {
    if (!log.hasNextPage || log.isFetching) return;
    const result = await log.fetchNextPage();
    if (result.isError) notify.error(failureOf(result.error).text);
  }

  return {
    events,
    isLoading: log.data === undefined && !hasFailed,
    isLoadingMore: log.isFetchingNextPage,
    hasMore: log.hasNextPage && log.data !== undefined,
    loadMore: () => void loadMore(),
    error: hasFailed ? log.error : undefined,
    retry: () => void log.refetch(),
  };
}
