import type { HistoryCurrency } from '@portal/contracts/wallet';
import { HISTORY_DOWNLOAD_CSV } from '@portal/contracts/wallet';
import { useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectUser } from '@/features/auth';
import { failureOf, toApiFailure } from '@/shared/api/api-failure';
import { formatPoints, formatRoubles, pointsWord } from '@/shared/lib/format-money';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { EmptyState } from '@/shared/ui/empty-state';
import { DownloadIcon, HistoryIcon } from '@/shared/ui/icons';
import { LoadFailed } from '@/shared/ui/load-failed';
import { LoadMoreButton } from '@/shared/ui/load-more-button';
import { PageBackLink, PageHeader } from '@/shared/ui/page-header';
import { SegmentedControl } from '@/shared/ui/segmented-control';
import { Skeleton } from '@/shared/ui/skeleton';
import { notify } from '@/shared/ui/toast';
import { downloadHistoryCsv } from './api/download-history-csv';
import { useLatestPaymentsQuery, usePaymentHistoryInfiniteQuery } from './api/wallet-api';
import { BalanceChart } from './balance-chart';
import { balanceSeries } from './balance-series';
import { groupByDay } from './group-by-day';
import { HistoryEntry } from './history-entry';
import styles from './wallet-history-page.module.css';
import {
  type HistoryFilter,
  historyFilterChanged,
  historyFilterQuery,
  historyQuery,
  mergeHistoryPages,
  selectHistoryFilter,
} from './wallet-slice';

const DIRECTIONS = [
  { value: 'all', label: 'Все' },
  { value: 'accrual', label: 'Начисления' },
  { value: 'writeOff', label: 'Списания' },
] as const satisfies readonly { value: HistoryFilter['direction']; label: string }[];

const CURRENCIES = [
  { value: 'all', label: 'Всё' },
  { value: 'rub', label: 'Рубли' },
  { value: 'points', label: 'Баллы' },
] as const satisfies readonly { value: HistoryFilter['currency']; label: string }[];

/** How many of the latest entries the chart is rebuilt from. */
const CHART_ENTRIES = 100;

/**
 * `/wallet/history`: the product names the screen but not its content; it shows what a customer
 * expects of a statement — the balance over time, entries by day with signed amounts, filters and
 * paging.
 */
export default function WalletHistoryPage() {
  const dispatch = useAppDispatch();
  const filter = useAppSelector(selectHistoryFilter);
  // One query per filter: a filter changed shows its own list (its loader first), never an
  // answer to the filter before.
  const query = usePaymentHistoryInfiniteQuery(historyQuery(filter));
  const pages = query.currentData?.pages;
  const history = useMemo(() => mergeHistoryPages(pages ?? []), [pages]);
  const groups = useMemo(() => groupByDay(history), [history]);
  const hasFailed = query.isError && !query.isFetching && pages === undefined;
  const isLoading = pages === undefined && !hasFailed;
  const hasMore = query.hasNextPage && pages !== undefined;

  // The next page ('Показать ещё'): one that fails says why in a toast; the list stays.
  const loadMore = async () => {
    if (query.isFetching) return;
    const result = await query.fetchNextPage();
    if (result.isError) notify.error(failureOf(result.error).text);
  };

  const isFiltered = filter.direction !== 'all' || filter.currency !== 'all';

  const [isDownloading, setIsDownloading] = useState(false);
  const download = async () => {
    setIsDownloading(true);
    try {
      await downloadHistoryCsv(historyFilterQuery(filter));
    } catch (error) {
      notify.error(toApiFailure(error).text);
    } finally {
      setIsDownloading(false);
    }
  };

  return (
    <>
      <PageHeader title="История начислений и списаний">
        <PageBackLink to={paths.home.getHref()} isHiddenOnPhone>
          На главную
        </PageBackLink>
      </PageHeader>
      <div className={styles.layout}>
        <BalanceCard chartCurrency={filter.currency === 'points' ? 'points' : 'rub'} />

        <Card className={blocks.stack} aria-labelledby="history-list-title">
          <h2 id="history-list-title" className="visually-hidden">
            Операции
          </h2>
          <div className={styles.filters}>
            <SegmentedControl
              label="Тип операции"
              options={DIRECTIONS}
              value={filter.direction}
              onChange={(direction) => dispatch(historyFilterChanged({ direction }))}
            />
            <SegmentedControl
              label="Валюта"
              options={CURRENCIES}
              value={filter.currency}
              onChange={(currency) => dispatch(historyFilterChanged({ currency }))}
            />
            <Button
              variant="secondary"
              size="sm"
              className={styles.download}
              onClick={() => void download()}
              disabled={isDownloading || (!isLoading && history.length === 0)}
            >
              <DownloadIcon width={16} height={16} />
              {HISTORY_DOWNLOAD_CSV}
            </Button>
          </div>

          {isLoading ? (
            <ul className={blocks.plainList} aria-busy="true" aria-label="Загрузка истории">
              {[0, 1, 2, 3].map((row) => (
                <li key={row} className={styles.entry}>
                  <Skeleton width={40} height={40} radius={12} />
                  <span className={styles.entryText}>
                    <Skeleton width="50%" height={15} />
                    <Skeleton width="30%" height={12} />
                  </span>
                  <Skeleton width={90} height={18} />
                </li>
              ))}
            </ul>
          ) : null}

          {hasFailed ? (
            <LoadFailed error={query.error} onRetry={() => void query.refetch()} />
          ) : null}

          {!isLoading && !hasFailed && history.length === 0 ? (
            <EmptyState
              icon={<HistoryIcon width={28} height={28} />}
              title={isFiltered ? 'Нет операций с такими условиями' : 'Операций пока нет'}
            >
              {isFiltered
                ? 'Попробуйте выбрать другой фильтр.'
                : 'Здесь появятся пополнения баланса, покупки услуг и начисления баллов.'}
            </EmptyState>
          ) : null}

          {!isLoading && history.length > 0 ? (
            <div className={styles.days}>
              {groups.map((group) => (
                <section key={group.key} className={styles.day} aria-label={group.title}>
                  <h3 className={styles.dayTitle}>{group.title}</h3>
                  <ul className={blocks.plainList}>
                    {group.items.map((item) => (
                      <HistoryEntry key={item.id} item={item} />
                    ))}
                  </ul>
                </section>
              ))}
            </div>
          ) : null}

          {!isLoading && hasMore ? (
            <LoadMoreButton isLoading={query.isFetchingNextPage} onClick={() => void loadMore()} />
          ) : null}
        </Card>
      </div>
    </>
  );
}

/** The balance now and, under it, how it moved over the latest entries of one currency. */
function BalanceCard({ chartCurrency }: { chartCurrency: HistoryCurrency }) {
  const user = useAppSelector(selectUser);
  const current = user ? (chartCurrency === 'rub' ? user.balance : user.balanceStars) : undefined;
  const latest = useLatestPaymentsQuery(
    { currency: chartCurrency, limit: CHART_ENTRIES },
    { skip: current === undefined },
  );
  const latestPage = latest.currentData;
  // The chart is a bonus: without it (its read failed) the page still shows the list.
  const series = useMemo(() => {
    if (current === undefined) return null;
    if (latestPage) {
      return balanceSeries(
        current,
        latestPage.data.filter((item) => item.currency === chartCurrency),
      );
    }
    return latest.isError && !latest.isFetching ? [] : null;
  }, [current, latestPage, chartCurrency, latest.isError, latest.isFetching]);

  return (
    <Card className={blocks.stack} aria-labelledby="history-balance-title">
      <div className={`${blocks.spread} ${styles.balanceHead}`}>
        <div>
          <h2 id="history-balance-title" className={blocks.figureLabel}>
            {chartCurrency === 'rub' ? 'Баланс' : 'Баллы кэшбэка'}
          </h2>
          <p className={styles.balanceValue}>
            {user ? (
              chartCurrency === 'rub' ? (
                formatRoubles(user.balance)
              ) : (
                `${formatPoints(user.balanceStars)} ${pointsWord(user.balanceStars)}`
              )
            ) : (
              <Skeleton width={160} height={32} />
            )}
          </p>
        </div>
        {user && chartCurrency === 'rub' ? (
          <p className={`${blocks.pill} ${blocks.pillWarning} ${styles.balanceAside}`}>
            {formatPoints(user.balanceStars)} {pointsWord(user.balanceStars)}
          </p>
        ) : null}
      </div>
      {series ? (
        <BalanceChart points={series} currency={chartCurrency} />
      ) : (
        <Skeleton height={140} radius={12} />
      )}
    </Card>
  );
}
