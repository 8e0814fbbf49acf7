import type { OwnerService } from '@portal/contracts/services';
import { formatRussianDate } from '@/shared/lib/format-date';
import { formatRoubles } from '@/shared/lib/format-money';
import { Button } from '@/shared/ui/button';
import { ExternalIcon } from '@/shared/ui/icons';
import { Modal, whenClosed } from '@/shared/ui/modal';
import styles from './services.module.css';

type ServiceDetailsModalProps = {
  service: OwnerService | null;
  onClose: () => void;
  onManage: (link: string) => void;
  isOpeningManage: boolean;
};

/** A service: its name, count, cost per month, autorenewal Включено/Отключено, link to manage. */
export function ServiceDetailsModal({
  service,
  onClose,
  onManage,
  isOpeningManage,
}: ServiceDetailsModalProps) {
  return (
    <Modal
      isOpen={service !== null}
      onOpenChange={whenClosed(onClose)}
      title={service?.message ?? ''}
      footer={
        service?.manageUrl ? (
          <Button
            onClick={() => service.manageUrl && onManage(service.manageUrl)}
            disabled={isOpeningManage}
          >
            Управление услугой
            <ExternalIcon />
          </Button>
        ) : null
      }
    >
      {service ? (
        <dl className={styles.details}>
          <div className={styles.detailsRow}>
            <dt>Услуга</dt>
            <dd>{service.message}</dd>
          </div>
          <div className={styles.detailsRow}>
            <dt>Количество</dt>
            <dd>{service.serverCount}</dd>
          </div>
          <div className={styles.detailsRow}>
            <dt>Стоимость в месяц</dt>
            <dd>{formatRoubles(service.amount)}</dd>
          </div>
          <div className={styles.detailsRow}>
            <dt>Автопродление</dt>
            <dd className={service.autoRenew ? styles.on : styles.off}>
              {service.autoRenew ? 'Включено' : 'Отключено'}
            </dd>
          </div>
          {service.paidUntil ? (
            <div className={styles.detailsRow}>
              <dt>{service.status === 'active' ? 'Оплачено до' : 'Было оплачено до'}</dt>
              <dd>{formatRussianDate(service.paidUntil)}</dd>
            </div>
          ) : null}
          <div className={styles.detailsRow}>
            <dt>Статус</dt>
            <dd className={service.status === 'active' ? styles.on : styles.off}>
              {service.status === 'active' ? 'Активна' : 'Приостановлена'}
            </dd>
          </div>
        </dl>
      ) : null}
    </Modal>
  );
}
