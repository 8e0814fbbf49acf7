import {
  CONTINUE_PAYMENT,
  HISTORY_STATUS_TEXTS,
  type LedgerKind,
  type PaymentHistoryItem,
  RECEIPT_LINK,
} from '@portal/contracts/wallet';
import type { ComponentType, SVGProps } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { formatTime } from '@/shared/lib/format-date';
import { formatSignedAmount } from '@/shared/lib/format-money';
import blocks from '@/shared/ui/blocks.module.css';
import { HistoryIcon, PlusIcon, ServerIcon, SparkIcon, WalletIcon } from '@/shared/ui/icons';
import { historyEntryView } from './history-status';
import styles from './wallet-history-page.module.css';

const KINDS: Record<LedgerKind, { label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }> = {
  topUp: { label: 'Пополнение', icon: PlusIcon },
  refund: { label: 'Возврат', icon: HistoryIcon },
  purchase: { label: 'Покупка услуги', icon: ServerIcon },
  renewal: { label: 'Продление услуги', icon: ServerIcon },
  cashback: { label: 'Кэшбэк', icon: SparkIcon },
  adjustment: { label: 'Корректировка', icon: WalletIcon },
  correction: { label: 'Корректировка', icon: WalletIcon },
};

/**
 * One line of the history: what, when, and the signed amount coloured by direction. A top-up
 * waiting for payment links back to its payment page while that page is open; a paid top-up or
 * a refund whose fiscal receipt has arrived links to it («Чек»).
 */
export function HistoryEntry({ item }: { item: PaymentHistoryItem }) {
  const kind = KINDS[item.kind];
  const Icon = kind.icon;
  const { status, continueUrl } = historyEntryView(item, Date.now());
  const tone = status !== 'completed' ? 'muted' : item.direction;
  return (
    <li className={styles.entry} data-direction={item.direction} data-status={status}>
      <span className={`${blocks.iconTile} ${styles.entryIcon}`} data-currency={item.currency}>
        <Icon />
      </span>
      <span className={styles.entryText}>
        <span className={styles.entryTitle} title={item.description || kind.label}>
          {item.description || kind.label}
        </span>
        <span className={styles.entryMeta}>
          {formatTime(item.createdAt)} · {kind.label}
          {status !== 'completed' ? (
            <span
              className={`${blocks.pill} ${blocks.pillMuted} ${styles.entryStatus}`}
              data-status={status}
            >
              {HISTORY_STATUS_TEXTS[status]}
            </span>
          ) : null}
          {continueUrl ? (
            <a className={styles.entryContinue} href={continueUrl}>
              {CONTINUE_PAYMENT}
            </a>
          ) : null}
          {item.receiptId ? (
            <Link
              className={styles.entryContinue}
              to={paths.walletReceipt.getHref(item.receiptId)}
              aria-label={`${RECEIPT_LINK}: ${kind.label.toLowerCase()} ${formatSignedAmount(item.amount, item.currency, item.direction)}`}
            >
              {RECEIPT_LINK}
            </Link>
          ) : null}
        </span>
      </span>
      <span className={styles.entryAmount} data-tone={tone}>
        {formatSignedAmount(item.amount, item.currency, item.direction)}
      </span>
    </li>
  );
}
