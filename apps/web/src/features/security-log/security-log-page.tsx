import {
  describeSecurityEvent,
  NEW_DEVICE_TEXT,
  type SecurityEvent,
} from '@portal/contracts/security-log';
import { describeDevice } from '@/features/devices';
import { formatRussianDate, formatTime } from '@/shared/lib/format-date';
import blocks from '@/shared/ui/blocks.module.css';
import { EmptyState } from '@/shared/ui/empty-state';
import { HistoryIcon } from '@/shared/ui/icons';
import { LoadFailed } from '@/shared/ui/load-failed';
import { LoadMoreButton } from '@/shared/ui/load-more-button';
import { ProfileListPage } from '@/shared/ui/profile-list-page';
import { Skeleton } from '@/shared/ui/skeleton';
import styles from './security-log-page.module.css';
import { useSecurityLog } from './use-security-log';

/** '21 ноября 2026 г. в 10:05' */
function whenText(iso: string): string {
  return `${formatRussianDate(iso)} в ${formatTime(iso)}`;
}

/** /profile/security-log: what happened to the account's security, newest first. */
export default function SecurityLogPage() {
  const { events, isLoading, isLoadingMore, hasMore, loadMore, error, retry } = useSecurityLog();

  return (
    <ProfileListPage title="Журнал безопасности" listTitle="События">
      {isLoading ? (
        <ul className={blocks.plainList} aria-busy="true" aria-label="Загрузка журнала">
          {[0, 1, 2, 3].map((row) => (
            <li key={row} className={styles.row}>
              <Skeleton width="50%" height={16} />
              <Skeleton width="35%" height={13} />
            </li>
          ))}
        </ul>
      ) : null}

      {error !== undefined ? <LoadFailed error={error} onRetry={retry} /> : null}

      {!isLoading && error === undefined && events.length === 0 ? (
        <EmptyState icon={<HistoryIcon width={28} height={28} />} title="Событий пока нет">
          Здесь появятся входы в аккаунт, смена пароля и другие изменения защиты.
        </EmptyState>
      ) : null}

      {!isLoading && events.length > 0 ? (
        <ul className={blocks.plainList} aria-label="События">
          {events.map((event) => (
            <EventRow key={event.id} event={event} />
          ))}
        </ul>
      ) : null}

      {hasMore ? <LoadMoreButton isLoading={isLoadingMore} onClick={loadMore} /> : null}
    </ProfileListPage>
  );
}

function EventRow({ event }: { event: SecurityEvent }) {
  // The device as the devices page names it; the address always (it is what the owner checks).
  const device = event.userAgent ? describeDevice(event.userAgent, null).title : null;
  const where = [device, event.ipAddress].filter(Boolean).join(' • ');
  return (
    <li className={styles.row} data-testid="security-event" data-kind={event.kind}>
      <span className={styles.title}>
        {describeSecurityEvent(event)}
        {event.details.isNewDevice ? (
          <span className={`${blocks.pill} ${blocks.pillAccent} ${styles.badge}`}>
            {NEW_DEVICE_TEXT}
          </span>
        ) : null}
      </span>
      <span className={styles.meta}>
        {where ? <span>{where} • </span> : null}
        <time dateTime={event.occurredAt}>{whenText(event.occurredAt)}</time>
      </span>
    </li>
  );
}
