import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageHeader } from '@/shared/ui/page-header';
import { PageLoader } from '@/shared/ui/page-loader';
import { useDecideMoneyRequestMutation, useMoneyRequestsQuery } from './api/staff-api';
import { formatAmount, formatMoment } from './format';
import { ReasonDialog } from './reason-dialog';
import styles from './staff.module.css';
import { STAFF_CHANGE_FORMS } from './staff-forms';
import { staffAccountHref } from './staff-nav';
import { StaffTable } from './staff-table';
import { useMe } from './use-me';

const KIND = { credit: 'Начисление', debit: 'Списание', refund: 'Возврат' };

type Deciding = { requestId: string; decision: 'approve' | 'decline' };

/**
 * /staff/money (finance and admin): the requests for money waiting for a second member. A member's
 * own request is approved by another one: its button is off here, and the server refuses it too.
 */
export function MoneyPage() {
  const me = useMe();
  const requests = useMoneyRequestsQuery();
  const [decide] = useDecideMoneyRequestMutation();
  const [deciding, setDeciding] = useState<Deciding | null>(null);

  let list: React.ReactNode;
  if (requests.isError && !requests.isFetching) {
    list = <LoadFailed error={requests.error} onRetry={() => void requests.refetch()} />;
  } else if (!requests.data) {
    list = <PageLoader />;
  } else if (requests.data.items.length === 0) {
    list = <p role="status">Запросов, ждущих одобрения, нет.</p>;
  } else {
    list = (
      <StaffTable
        head={['Запрошено', 'Кем', 'Что', 'Аккаунт', 'Сумма', 'Причина', 'Истекает', '']}
        actionsLabel="Решение"
        rows={requests.data.items.map((request) => {
          const isOwn = request.requestedByUserId === me.userId;
          return {
            key: request.id,
            cells: [
              formatMoment(request.requestedAt),
              request.requestedBy,
              `${KIND[request.kind]}${request.paymentId ? ` (платёж ${request.paymentId})` : ''}`,
              <Link key="account" className={styles.link} to={staffAccountHref(request.accountId)}>
                {request.accountEmail}
              </Link>,
              formatAmount(request.amount, request.currency),
              request.reason,
              formatMoment(request.expiresAt),
              <div key="decide" className={styles.actions}>
                <Button
                  size="sm"
                  disabled={isOwn}
                  title={isOwn ? 'Свой запрос одобряет другой сотрудник' : undefined}
                  onClick={() => setDeciding({ requestId: request.id, decision: 'approve' })}
                >
                  Одобрить
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  onClick={() => setDeciding({ requestId: request.id, decision: 'decline' })}
                >
                  Отклонить
                </Button>
              </div>,
            ],
          };
        })}
      />
    );
  }

  return (
    <>
      <PageHeader title="Запросы на деньги" />
      <section className={styles.section} aria-label="Ждут одобрения">
        {list}
      </section>
      <ReasonDialog
        isOpen={deciding !== null}
        onClose={() => setDeciding(null)}
        title={deciding?.decision === 'decline' ? 'Отклонить запрос' : 'Одобрить запрос'}
        submitLabel={deciding?.decision === 'decline' ? 'Отклонить' : 'Одобрить'}
        isDanger={deciding?.decision === 'decline'}
        schema={STAFF_CHANGE_FORMS[deciding?.decision ?? 'approve']}
        defaultValues={{ reason: '' }}
        onSubmit={({ reason }) =>
          deciding ? decide({ ...deciding, reason }) : Promise.resolve({})
        }
      />
    </>
  );
}
