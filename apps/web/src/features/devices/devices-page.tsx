import type { Device } from '@portal/contracts/auth';
import { DEVICE_SKELETON_ROWS } from '@portal/contracts/constants';
import { useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { fetchCurrentUser, signOutLocally } from '@/features/auth';
import { failureOf } from '@/shared/api/api-failure';
import { formatRussianDate, formatTime } from '@/shared/lib/format-date';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Modal, ModalClose } from '@/shared/ui/modal';
import { ProfileListPage } from '@/shared/ui/profile-list-page';
import { Skeleton } from '@/shared/ui/skeleton';
import { notify } from '@/shared/ui/toast';
import { useDevicesQuery, useEndDeviceSessionMutation } from './api/devices-api';
import { deviceRowTexts } from './describe-device';
import styles from './devices-page.module.css';

/** '21 ноября 2026 г. в 10:05' */
function lastActivityText(iso: string): string {
  return `${formatRussianDate(iso)} в ${formatTime(iso)}`;
}

/** /profile/devices: every signed-in device, each with 'Выйти'. */
export default function DevicesPage() {
  const dispatch = useAppDispatch();
  const devices = useDevicesQuery();
  const [endDeviceSession, { isLoading: isEnding }] = useEndDeviceSessionMutation();
  const [leaving, setLeaving] = useState<Device | null>(null);

  async function endSession(device: Device) {
    const result = await endDeviceSession(device);
    if (result.error) {
      notify.error(failureOf(result.error).text);
      return;
    }
    setLeaving(null);
    // This very device's session: signed out here, as by «Выйти из аккаунта» (not an ended session
    // /auth would warn of). Another's: auth is checked again.
    if (device.isCurrent) dispatch(signOutLocally());
    else await dispatch(fetchCurrentUser());
  }

  return (
    <ProfileListPage
      title="Привязанные устройства"
      listTitle="Устройства"
      after={
        <Modal
          isOpen={leaving !== null}
          onOpenChange={(isOpen) => {
            if (!isOpen && !isEnding) setLeaving(null);
          }}
          title="Точно выйти?"
          description={leaving ? deviceRowTexts(leaving).line : ''}
          footer={
            <>
              <ModalClose>
                <Button variant="secondary" disabled={isEnding}>
                  Отмена
                </Button>
              </ModalClose>
              <Button
                variant="danger"
                disabled={isEnding}
                aria-busy={isEnding}
                onClick={() => leaving && void endSession(leaving)}
              >
                Выйти
              </Button>
            </>
          }
        />
      }
    >
      {devices.isError && !devices.isFetching ? (
        <LoadFailed error={devices.error} onRetry={() => void devices.refetch()} />
      ) : devices.isLoading || (devices.isFetching && devices.isError) ? (
        <ul className={blocks.plainList} aria-busy="true" aria-label="Загрузка устройств">
          {Array.from({ length: DEVICE_SKELETON_ROWS }, (_, row) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <li key={row} className={styles.row} data-testid="device-skeleton">
              <span className={styles.text}>
                <Skeleton width="45%" height={16} />
                <Skeleton width="30%" height={13} />
              </span>
              <Skeleton width={72} height={34} radius={10} />
            </li>
          ))}
        </ul>
      ) : (
        <ul className={blocks.plainList} aria-label="Устройства">
          {(devices.data ?? []).map((device) => (
            <DeviceRow key={device.id} device={device} onLeave={() => setLeaving(device)} />
          ))}
        </ul>
      )}
    </ProfileListPage>
  );
}

function DeviceRow({ device, onLeave }: { device: Device; onLeave: () => void }) {
  const { description, site, line } = deviceRowTexts(device);
  const { title, ip } = description;
  return (
    <li
      className={styles.row}
      data-testid="device-row"
      data-device-id={device.id}
      data-device-kind={device.kind ?? 'session'}
    >
      <span className={styles.text}>
        <span className={styles.title}>
          {title}
          {ip ? <span className={styles.ip}> • {ip}</span> : null}
          {device.isCurrent ? <span className={styles.current}>Это устройство</span> : null}
        </span>
        <span className={styles.meta}>
          {site ? <span className={styles.site}>{site} • </span> : null}
          Привязан{' '}
          <time dateTime={device.lastActivity}>{lastActivityText(device.lastActivity)}</time>
        </span>
      </span>
      <Button variant="secondary" size="sm" onClick={onLeave} aria-label={`Выйти: ${line}`}>
        Выйти
      </Button>
    </li>
  );
}
