import type { OwnerService } from '@portal/contracts/services';
import { useState } from 'react';
import { runtimeConfig } from '@/config/runtime-config';
import { formatRoubles } from '@/shared/lib/format-money';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card, CardHead } from '@/shared/ui/card';
import { ChevronRightIcon, ServerIcon } from '@/shared/ui/icons';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Skeleton } from '@/shared/ui/skeleton';
import { useOwnerServicesQuery } from './api/services-api';
import { ServiceDetailsModal } from './service-details-modal';
import styles from './services.module.css';
import { useSiblingLink } from './use-sibling-link';

function serversWord(count: number): string {
  const rule = new Intl.PluralRules('ru-RU').select(count);
  if (rule === 'one') return 'сервер';
  if (rule === 'few') return 'сервера';
  return 'серверов';
}

/** The home page's list of the customer's services; each opens its details. */
export function MyServices() {
  const services = useOwnerServicesQuery();
  const [selected, setSelected] = useState<OwnerService | null>(null);
  const sibling = useSiblingLink();

  return (
    <Card className={blocks.stack} aria-labelledby="my-services-title">
      <CardHead titleId="my-services-title" title="Мои услуги">
        {services.data && services.data.length > 0 ? (
          <span className={styles.count}>{services.data.length}</span>
        ) : null}
      </CardHead>

      {services.isFetching && !services.data ? (
        <ul className={blocks.choiceList} aria-busy="true" aria-label="Загрузка услуг">
          {[0, 1].map((row) => (
            <li key={row} className={styles.skeletonRow}>
              <Skeleton width={40} height={40} radius={12} />
              <span className={styles.skeletonText}>
                <Skeleton width="55%" height={16} />
                <Skeleton width="35%" height={12} />
              </span>
            </li>
          ))}
        </ul>
      ) : null}

      {services.isError && !services.isFetching && !services.data ? (
        <LoadFailed error={services.error} onRetry={() => void services.refetch()} />
      ) : null}

      {services.data && services.data.length === 0 ? (
        <div className={styles.empty}>
          <span className={styles.emptyIcon}>
            <ServerIcon width={28} height={28} />
          </span>
          <p className={styles.emptyText}>У вас сейчас нет подключенных услуг</p>
          <Button
            onClick={() => void sibling.open(runtimeConfig.hostingUrl)}
            disabled={sibling.openingLink !== null}
          >
            Заказать сервер
          </Button>
        </div>
      ) : null}

      {services.data && services.data.length > 0 ? (
        <ul className={blocks.choiceList}>
          {services.data.map((service) => (
            <li key={service.id}>
              <button
                type="button"
                className={blocks.choiceRow}
                onClick={() => setSelected(service)}
              >
                <span className={blocks.iconTile}>
                  <ServerIcon />
                </span>
                <span className={blocks.choiceText}>
                  <span className={styles.rowTitle}>{service.message}</span>
                  <span className={styles.rowMeta}>
                    <span>
                      {service.serverCount} {serversWord(service.serverCount)}
                    </span>
                    <span>{formatRoubles(service.amount)}/мес</span>
                    {service.status === 'suspended' ? (
                      <span className={`${blocks.pill} ${blocks.pillWarning}`}>Приостановлена</span>
                    ) : null}
                  </span>
                </span>
                <ChevronRightIcon className={blocks.chevron} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}

      <ServiceDetailsModal
        service={selected}
        onClose={() => setSelected(null)}
        onManage={(link) => void sibling.open(link)}
        isOpeningManage={sibling.openingLink !== null}
      />
    </Card>
  );
}
