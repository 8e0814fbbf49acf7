import type { ReceiptAnswer } from '@portal/contracts/wallet';
import { useState } from 'react';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Modal, whenClosed } from '@/shared/ui/modal';
import { ReceiptDetails } from '@/shared/ui/receipt-details';
import { Skeleton } from '@/shared/ui/skeleton';
import { usePaymentReceiptsQuery } from './api/staff-api';
import styles from './staff.module.css';

export const NO_RECEIPTS = 'Чеков по этому платежу пока нет: касса ещё не прислала их.';

type ReceiptsDialogProps = {
  /** The payment whose receipts are shown; null: the dialog is closed. */
  paymentId: string | null;
  onClose: () => void;
};

/**
 * «Чеки» of a payment on the staff account page: the top-up's receipt and each refund's, as the
 * customer's receipt page shows them (shared/ui/receipt-details.tsx). Each opening is one read
 * the server records in the audit (`receipts_opened`).
 */
export function ReceiptsDialog({ paymentId, onClose }: ReceiptsDialogProps) {
  // The last payment shown stays while the dialog closes, so its content does not vanish first.
  const [shown, setShown] = useState(paymentId);
  if (paymentId !== null && paymentId !== shown) setShown(paymentId);
  return (
    <Modal
      isOpen={paymentId !== null}
      onOpenChange={whenClosed(onClose)}
      title="Чеки платежа"
      description={shown ? `Платёж ${shown}` : undefined}
      size="lg"
    >
      {shown ? <Receipts paymentId={shown} /> : null}
    </Modal>
  );
}

function Receipts({ paymentId }: { paymentId: string }) {
  const query = usePaymentReceiptsQuery(paymentId);
  if (query.isError && !query.isFetching) {
    return <LoadFailed error={query.error} onRetry={() => void query.refetch()} />;
  }
  if (!query.currentData) {
    return (
      <div className={styles.receipts} role="status" aria-label="Загрузка чеков">
        <Skeleton width="40%" height={20} />
        <Skeleton width="70%" height={16} />
      </div>
    );
  }
  return <ReceiptList receipts={query.currentData.items} />;
}

/** The receipts one under another; a line saying there are none yet. Shown as it is given. */
export function ReceiptList({ receipts }: { receipts: ReceiptAnswer[] }) {
  if (receipts.length === 0) return <p className={styles.muted}>{NO_RECEIPTS}</p>;
  return (
    <ul className={styles.receipts} aria-label="Чеки">
      {receipts.map((receipt) => (
        <li key={receipt.id}>
          <ReceiptDetails receipt={receipt} titleId={`receipt-${receipt.id}`} headingLevel={3} />
        </li>
      ))}
    </ul>
  );
}
