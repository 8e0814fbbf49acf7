import { SECURITY_EVENT_TEXTS } from '@portal/contracts/security-log';
import {
  type StaffAccountAction,
  type StaffAccountAnswer,
  staffCan,
} from '@portal/contracts/staff';
import { useState } from 'react';
import { useParams } from 'react-router';
import { formatRoubles } from '@/shared/lib/format-money';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { PageHeader } from '@/shared/ui/page-header';
import { PageLoader } from '@/shared/ui/page-loader';
import { AccountDialogs, type OpenDialog } from './account-dialogs';
import { useAccountQuery } from './api/staff-api';
import { AuditTable } from './audit-table';
import { formatAmount, formatMoment } from './format';
import { ReceiptsDialog } from './receipts-dialog';
import styles from './staff.module.css';
import { StaffTable, type StaffTableRow } from './staff-table';
import { useMe } from './use-me';

/** The account's action buttons, each opening its dialog (the reason is asked there). */
const ACTION_LABELS: Record<StaffAccountAction, string> = {
  unlock: 'Снять паузу входа',
  'end-sessions': 'Завершить все сеансы',
  block: 'Заблокировать',
  unblock: 'Разблокировать',
};

const LETTER_STATUS = { pending: 'В очереди', sent: 'Отправлено', failed: 'Не доставлено' };

/** /staff/accounts/:id: everything of one account the desk needs, and what it may do to it. */
export function AccountPage() {
  const { id = '' } = useParams();
  const me = useMe();
  const account = useAccountQuery(id);
  const [open, setOpen] = useState<OpenDialog | null>(null);
  const [receiptsOf, setReceiptsOf] = useState<string | null>(null);

  if (account.isError && !account.isFetching) {
    return <LoadFailed isPage error={account.error} onRetry={() => void account.refetch()} />;
  }
  if (!account.data) return <PageLoader />;
  const data = account.data;
  const { profile } = data;
  const mayMoveMoney = staffCan(me.role, 'money');
  const actions: StaffAccountAction[] = [
    'unlock',
    'end-sessions',
    profile.blockedAt ? 'unblock' : 'block',
  ];

  return (
    <>
      <PageHeader title={profile.email} />
      <section className={styles.section} aria-labelledby="account-actions">
        <h2 id="account-actions" className={styles.sectionTitle}>
          Действия
        </h2>
        <div className={styles.actions}>
          {actions.map((action) => (
            <Button
              key={action}
              variant={action === 'block' ? 'danger' : 'secondary'}
              onClick={() => setOpen({ kind: 'action', action, label: ACTION_LABELS[action] })}
            >
              {ACTION_LABELS[action]}
            </Button>
          ))}
          <Button variant="secondary" onClick={() => setOpen({ kind: 'factorResetCode' })}>
            Сбросить второй фактор
          </Button>
          {mayMoveMoney ? (
            <Button variant="secondary" onClick={() => setOpen({ kind: 'correction' })}>
              Корректировка баланса
            </Button>
          ) : null}
        </div>
      </section>

      <ProfileSection account={data} />

      <Table
        title="Сеансы и устройства"
        head={['Устройство', 'IP', 'Сайт', 'Вошёл', 'Был виден']}
        rows={data.sessions.map((session) => ({
          key: session.id,
          cells: [
            session.device,
            session.ip ?? '—',
            session.site ?? '—',
            formatMoment(session.createdAt),
            session.lastSeenAt ? formatMoment(session.lastSeenAt) : '—',
          ],
        }))}
      />

      <Table
        title="Журнал безопасности"
        head={['Когда', 'Событие', 'IP']}
        rows={data.securityLog.map((event, index) => ({
          key: `${event.at}-${index}`,
          cells: [
            formatMoment(event.at),
            SECURITY_EVENT_TEXTS[event.kind] ?? event.kind,
            event.ip ?? '—',
          ],
        }))}
      />

      <Table
        title="Платежи"
        head={['Когда', 'Сумма', 'Статус', 'Способ', 'Возвращено', 'Чеки', '']}
        rows={data.payments.map((payment) => ({
          key: payment.id,
          cells: [
            formatMoment(payment.createdAt),
            formatRoubles(payment.amount),
            payment.status,
            payment.method ?? '—',
            payment.refunded ? formatRoubles(payment.refunded) : '—',
            <Button
              key="receipts"
              size="sm"
              variant="secondary"
              aria-label={`Чеки платежа ${payment.id}`}
              onClick={() => setReceiptsOf(payment.id)}
            >
              Чеки
            </Button>,
            mayMoveMoney ? (
              <div key="money" className={styles.actions}>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Сверить платёж ${payment.id} с банком`}
                  onClick={() => setOpen({ kind: 'reconcile', paymentId: payment.id })}
                >
                  Сверить
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  aria-label={`Вернуть платёж ${payment.id}`}
                  onClick={() => setOpen({ kind: 'refund', paymentId: payment.id })}
                >
                  Вернуть
                </Button>
              </div>
            ) : null,
          ],
        }))}
      />

      <Table
        title="Движения по счёту"
        head={['Когда', 'Что', 'Сумма', 'Описание']}
        rows={data.ledger.map((entry, index) => ({
          key: `${entry.at}-${index}`,
          cells: [
            formatMoment(entry.at),
            entry.kind,
            formatAmount(entry.amount, entry.currency),
            entry.description ?? '—',
          ],
        }))}
      />

      <Table
        title="Письма"
        head={['Когда', 'Тема', 'Статус', 'Попыток', '']}
        rows={data.letters.map((letter) => ({
          key: letter.id,
          cells: [
            formatMoment(letter.createdAt),
            letter.subject,
            LETTER_STATUS[letter.status],
            String(letter.attempts),
            <Button
              key="resend"
              size="sm"
              variant="secondary"
              aria-label={`Отправить ещё раз: ${letter.subject}`}
              onClick={() => setOpen({ kind: 'resendLetter', letterId: letter.id })}
            >
              Отправить ещё раз
            </Button>,
          ],
        }))}
      />

      <section className={styles.section} aria-labelledby="staff-actions">
        <h2 id="staff-actions" className={styles.sectionTitle}>
          Действия сотрудников
        </h2>
        <AuditTable rows={data.staffActions} />
      </section>

      <AccountDialogs accountId={id} open={open} onOpen={setOpen} />
      <ReceiptsDialog paymentId={receiptsOf} onClose={() => setReceiptsOf(null)} />
    </>
  );
}

function ProfileSection({ account }: { account: StaffAccountAnswer }) {
  const { profile, balances } = account;
  const facts: [string, string][] = [
    ['Id', profile.id],
    ['Имя пользователя', profile.username],
    ['Имя', profile.fullName ?? '—'],
    ['E-mail', `${profile.email}${profile.isEmailConfirmed ? '' : ' (не подтверждён)'}`],
    ['Телефон', profile.phone ?? '—'],
    ['Telegram id', profile.telegramId ?? '—'],
    ['Создан', formatMoment(profile.createdAt)],
    [
      'Блокировка',
      profile.blockedAt
        ? `с ${formatMoment(profile.blockedAt)}${profile.blockedReason ? `: ${profile.blockedReason}` : ''}`
        : 'нет',
    ],
    ['Вход на паузе до', profile.signInPausedUntil ? formatMoment(profile.signInPausedUntil) : '—'],
    [
      'Удаление назначено',
      profile.deletionScheduledAt ? formatMoment(profile.deletionScheduledAt) : '—',
    ],
    ['Аутентификатор', profile.hasAuthenticator ? 'подключён' : 'нет'],
    ['Ключей доступа', String(profile.passkeyCount)],
    ['Роль сотрудника', profile.staffRole ?? '—'],
    ['Баланс', formatAmount(balances.rub, 'rub')],
    ['Баллы', formatAmount(balances.points, 'points')],
  ];
  return (
    <section className={styles.section} aria-labelledby="account-profile">
      <h2 id="account-profile" className={styles.sectionTitle}>
        Профиль и баланс
      </h2>
      <dl className={styles.facts}>
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** One of the account's lists under its title. */
function Table({ title, head, rows }: { title: string; head: string[]; rows: StaffTableRow[] }) {
  const titleId = `account-${title}`.replace(/\s+/g, '-');
  return (
    <section className={styles.section} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.sectionTitle}>
        {title}
      </h2>
      <StaffTable head={head} rows={rows} />
    </section>
  );
}
