import {
  RECEIPT_TAXATION_TEXTS,
  RECEIPT_TYPE_TEXTS,
  RECEIPT_VAT_TEXTS,
  type ReceiptAnswer,
} from '@portal/contracts/wallet';
import { useParams } from 'react-router';
import { paths } from '@/config/paths';
import { failureOf } from '@/shared/api/api-failure';
import { formatRussianDate, formatTime } from '@/shared/lib/format-date';
import { formatRoubles } from '@/shared/lib/format-money';
import { Card } from '@/shared/ui/card';
import { EmptyState } from '@/shared/ui/empty-state';
import { ExternalIcon, HistoryIcon } from '@/shared/ui/icons';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageBackLink, PageHeader } from '@/shared/ui/page-header';
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
        {state.status === 'ready' ? <ReceiptDetails receipt={state.receipt} /> : null}
      </Card>
    </>
  );
}

function ReceiptDetails({ receipt }: { receipt: ReceiptAnswer }) {
  const total = formatRoubles(receipt.amount);
  const rows: [string, string][] = [
    ['Продавец', receipt.seller],
    ['Дата и время', `${formatRussianDate(receipt.issuedAt)} в ${formatTime(receipt.issuedAt)}`],
    ['Признак расчёта', RECEIPT_TYPE_TEXTS[receipt.type]],
    ...(receipt.taxation
      ? [['Система налогообложения', RECEIPT_TAXATION_TEXTS[receipt.taxation] ?? receipt.taxation]]
      : []),
  ] as [string, string][];
  const fiscal: [string, string][] = [
    ['ФН', receipt.fnNumber],
    ['ФД', String(receipt.fiscalDocumentNumber)],
    ['ФП', String(receipt.fiscalDocumentAttribute)],
    ...(receipt.shiftNumber === null ? [] : [['Смена', String(receipt.shiftNumber)]]),
    ...(receipt.fiscalNumber === null ? [] : [['Чек за смену', String(receipt.fiscalNumber)]]),
    ...(receipt.ecrRegNumber ? [['РН ККТ', receipt.ecrRegNumber]] : []),
  ] as [string, string][];
  return (
    <article className={styles.receipt} data-testid="receipt" data-type={receipt.type}>
      <h2 id="receipt-title" className={styles.title}>
        {RECEIPT_TYPE_TEXTS[receipt.type]} · {total}
      </h2>
      <dl className={styles.fields}>
        {rows.map(([name, value]) => (
          <Field key={name} name={name} value={value} />
        ))}
      </dl>
      <table className={styles.items}>
        <caption className={styles.caption}>Предмет расчёта</caption>
        <thead>
          <tr>
            <th scope="col">Наименование</th>
            <th scope="col">Кол-во</th>
            <th scope="col">Сумма</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>{receipt.itemName}</td>
            <td>1</td>
            <td className={styles.amount}>{total}</td>
          </tr>
        </tbody>
      </table>
      <dl className={styles.fields}>
        <Field name="Итого" value={total} isStrong />
        <Field name="Безналичными" value={total} />
        <Field name="НДС" value={RECEIPT_VAT_TEXTS[receipt.vat] ?? receipt.vat} />
        {fiscal.map(([name, value]) => (
          <Field key={name} name={name} value={value} />
        ))}
      </dl>
      <figure className={styles.qr}>
        <img
          src={`data:image/png;base64,${receipt.qrCode}`}
          alt={`QR-код для проверки чека: ${receipt.qrText}`}
          data-qr-text={receipt.qrText}
          width={164}
          height={164}
        />
        <figcaption className={styles.qrCaption}>
          Отсканируйте QR-код в приложении «Проверка чеков» или проверьте чек по его ФН, ФД и ФП на{' '}
          <a href={receipt.checkUrl} target="_blank" rel="noopener noreferrer">
            сайте ФНС
            <ExternalIcon width={14} height={14} aria-hidden="true" />
          </a>
          .
        </figcaption>
      </figure>
    </article>
  );
}

function Field({ name, value, isStrong }: { name: string; value: string; isStrong?: boolean }) {
  return (
    <div className={styles.field} data-strong={isStrong ? 'true' : undefined}>
      <dt>{name}</dt>
      <dd>{value}</dd>
    </div>
  );
}
