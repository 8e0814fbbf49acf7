import type { LedgerKind, PaymentHistoryItem } from '@portal/contracts/wallet';
import type { ComponentType, SVGProps } from 'react';
import { formatTime } from '@/shared/lib/format-date';
import { formatSignedAmount } from '@/shared/lib/format-money';
import { HistoryIcon, PlusIcon, ServerIcon, SparkIcon, WalletIcon } from '@/shared/ui/icons';
import styles from './wallet-history-page.module.css';

const KINDS: Record<LedgerKind, { label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }> = {
  topUp: { label: 'Пополнение', icon: PlusIcon },
  refund: { label: 'Возврат', icon: HistoryIcon },
  purchase: { label: 'Покупка услуги', icon: ServerIcon },
  renewal: { label: 'Продление услуги', icon: ServerIcon },
  cashback: { label: 'Кэшбэк', icon: SparkIcon },
  adjustment: { label: 'Корректировка', icon: WalletIcon },
};

const STATUSES: Record<Exclude<PaymentHistoryItem['status'], 'completed'>, string> = {
  pending: 'Ожидает оплаты',
  failed: 'Не прошло',
  canceled: 'Отменено',
};

/** One line of the history: what, when, and the signed amount coloured by direction. */
export function HistoryEntry({ item }: { item: PaymentHistoryItem }) {
  const kind = KINDS[item.kind];
  const Icon = kind.icon;
  const tone = item.status !== 'completed' ? 'muted' : item.direction;
  return (
    <li className={styles.entry} data-direction={item.direction} data-status={item.status}>
      <span className={styles.entryIcon} data-currency={item.currency}>
        <Icon />
      </span>
      <span className={styles.entryText}>
        <span className={styles.entryTitle}>{item.description || kind.label}</span>
        <span className={styles.entryMeta}>
          {formatTime(item.createdAt)} · {kind.label}
          {item.status !== 'completed' ? (
            <span className={styles.entryStatus} data-status={item.status}>
              {STATUSES[item.status]}
            </span>
          ) : null}
        </span>
      </span>
      <span className={styles.entryAmount} data-tone={tone}>
        {formatSignedAmount(item.amount, item.currency, item.direction)}
      </span>
    </li>
  );
}
