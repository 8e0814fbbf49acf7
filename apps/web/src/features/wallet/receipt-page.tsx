import type { ReceiptAnswer } from '@portal/contracts/wallet';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { failureOf } from '@/shared/api/api-failure';
import { Card } from '@/shared/ui/card';
import { EmptyState } from '@/shared/ui/empty-state';
import { HistoryIcon } from '@/shared/ui/icons';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageBackLink, PageHeader } from '@/shared/ui/page-header';
import { ReceiptDetails } from '@/shared/ui/receipt-details';
import { Skeleton } from '@/shared/ui/skeleton';
import { useReceiptQuery } from './api/wallet-api';
import styles from './receipt-page.module.css';

type ReceiptState =
  | { status: 'loading' }
  | { status: 'ready'; receipt: ReceiptAnswer }
  | { status: 'missing' }
  | { status: 'failed' };

/** The query as the page shows it: a 404 is a receipt that is not the caller's (or none). */
function receiptState(query: {
  currentData?: ReceiptAnswer;
  error?: unknown;
  isError: boolean;
  isFetching: boolean;
}): ReceiptState {
  if (query.currentData) return { status: 'ready', receipt: query.currentData };
  if (!query.isError || query.isFetching) return { status: 'loading' };
  return failureOf(query.error).status === 404 ? { status: 'missing' } : { status: 'failed' };
}

/**
 * `/wallet/receipts/:id`: the fiscal receipt of a top-up or of its refund, as the provider's
 * register printed it, with the QR code the tax service checks a receipt by.
 */
export default function ReceiptPage() {
  const { id = '' } = useParams();
  const query = useReceiptQuery(id);
  const state = receiptState(query);

  return (
    <>
      <PageHeader title="Кассовый чек">
        <PageBackLink to={paths.walletHistory.getHref()}>История</PageBackLink>
      </PageHeader>
      <Card
        {...(state.status === 'ready'
          ? { 'aria-labelledby': 'receipt-title' }
          : { 'aria-label': 'Кассовый чек' })}
        aria-busy={state.status === 'loading'}
      >
        {state.status === 'loading' ? (
          <div className={styles.loading} role="status" aria-label="Загрузка чека">
            <Skeleton width="40%" height={20} />
            <Skeleton width="70%" height={16} />
            <Skeleton width="60%" height={16} />
          </div>
        ) : null}
        {state.status === 'missing' ? (
          <EmptyState icon={<HistoryIcon width={28} height={28} />} title="Чек не найден">
            Такого чека нет среди ваших операций.
          </EmptyState>
        ) : null}
        {state.status === 'failed' ? (
          <LoadFailed error={query.error} onRetry={() => void query.refetch()} />
        ) : null}
        {state.status === 'ready' ? (
          <ReceiptDetails receipt={state.receipt} titleId="receipt-title" />
        ) : null}
      </Card>
    </>
  );
}
