import { AVATAR_DISPLAY_SIZE_PX } from '@portal/contracts/constants';
import { ID_COPIED, TELEGRAM_CHECK_FAILED } from '@portal/contracts/messages';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { AccountDataSection } from '@/features/account-data';
import { fetchCurrentUser, selectUser, useLogout } from '@/features/auth';
import { CheckupCard } from '@/features/checkup';
import { useDevicesQuery } from '@/features/devices';
import { PasskeysSection } from '@/features/passkeys';
import { useTelegramLinkedQuery } from '@/features/profile/api/telegram-api';
import { devicesCountText } from '@/features/profile/devices-count-text';
import styles from '@/features/profile/profile.module.css';
import { SecurityCard } from '@/features/profile/security-card';
import { Avatar } from '@/shared/ui/avatar';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { lazyModal } from '@/shared/ui/modal';
import { PageHeader } from '@/shared/ui/page-header';
import { PageLoader } from '@/shared/ui/page-loader';
import { notify } from '@/shared/ui/toast';

// The dialogs (their forms, react-hook-form with them) load when first opened: the page shows
// only their openers (its budget: docs/benchmarks.md).
const MyDataModal = lazyModal(() =>
  import('@/features/profile/my-data-modal').then((module) => ({ default: module.MyDataModal })),
);
const EmailChangeModal = lazyModal(() =>
  import('@/features/profile/email-change-modal').then((module) => ({
    default: module.EmailChangeModal,
  })),
);

/**
 * /profile: user card, security checkup, contacts, security and 2FA, devices, logout. It puts
 * several features side by side (profile, checkup, devices, passkeys, account-data), so it lives
 * in the app layer, as home does; apps/web/src/architecture.test.ts holds pages to that.
 */
export default function ProfilePage() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const devices = useDevicesQuery();
  const telegram = useTelegramLinkedQuery();
  const logout = useLogout();
  const [searchParams, setSearchParams] = useSearchParams();
  const [isMyDataOpen, setIsMyDataOpen] = useState(false);
  const [isEmailOpen, setIsEmailOpen] = useState(false);
  const [isLoggingOut, setIsLoggingOut] = useState(false);

  // Telegram's status could not be read (no status known): said once, in a toast.
  const isTelegramUnknown = telegram.isError && telegram.data === undefined;
  useEffect(() => {
    if (isTelegramUnknown) notify.error(TELEGRAM_CHECK_FAILED);
  }, [isTelegramUnknown]);

  // Back from the Telegram tab: the bot may have linked the account or connected the phone
  // (Telegram's own query is read again on the focus by RTK Query).
  useEffect(() => {
    const onFocus = () => {
      // The user is kept on screen while it is read again (contacts the bot may have changed).
      void dispatch(fetchCurrentUser());
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [dispatch]);

  // The Yandex ID callback comes back here when it linked (or failed to link) the account.
  useEffect(() => {
    const error = searchParams.get('yandexError');
    const linked = searchParams.get('yandexLinked');
    if (!error && !linked) return;
    if (error) notify.error(error);
    if (linked) {
      notify.success('Яндекс ID привязан');
      void dispatch(fetchCurrentUser());
    }
    setSearchParams({}, { replace: true });
  }, [searchParams, setSearchParams, dispatch]);

  if (!user) return <PageLoader />;

  const fullName = [user.firstName, user.middleName, user.lastName].filter(Boolean).join(' ');

  async function copyId() {
    if (!user) return;
    try {
      await navigator.clipboard.writeText(user.id);
      notify.success(ID_COPIED);
    } catch {
      notify.error('Не удалось скопировать ID');
    }
  }

  return (
    <>
      <PageHeader title="Личные данные" />
      <div className={styles.grid}>
        <Card className={`${styles.userCard} ${styles.wide}`} aria-label="Профиль">
          <Avatar user={user} size={AVATAR_DISPLAY_SIZE_PX} />
          <div className={styles.identity}>
            <p className={styles.name}>{fullName || user.userName}</p>
            <span className={styles.muted}>@{user.userName}</span>
            <span className={styles.idRow}>
              ID: <span className={styles.idValue}>{user.id}</span>
              <Button variant="ghost" size="sm" onClick={() => void copyId()}>
                Скопировать ID
              </Button>
            </span>
          </div>
          <Button variant="secondary" onClick={() => setIsMyDataOpen(true)}>
            Мои данные
          </Button>
        </Card>

        <div className={styles.wide}>
          <CheckupCard />
        </div>

        <Card aria-labelledby="contacts-title">
          <h2 id="contacts-title" className={blocks.cardTitle}>
            Контакты
          </h2>
          <div className={blocks.settingRows}>
            <div className={blocks.settingRow}>
              <div className={blocks.settingText}>
                <span className={blocks.settingTitle}>Почта</span>
                <span className={styles.muted} data-testid="profile-email">
                  {user.email}
                </span>
              </div>
              <Button
                variant="secondary"
                size="sm"
                data-checkup-target="email"
                onClick={() => setIsEmailOpen(true)}
              >
                Изменить
              </Button>
            </div>
            <div className={blocks.settingRow}>
              <div className={blocks.settingText}>
                <span className={blocks.settingTitle}>Телефон</span>
                <span className={styles.muted} data-testid="profile-phone">
                  {user.phoneNamber ?? 'Не указан'}
                </span>
              </div>
            </div>
          </div>
        </Card>

        <Card aria-labelledby="devices-summary-title">
          <h2 id="devices-summary-title" className={blocks.cardTitle}>
            Устройства
          </h2>
          <Link to={paths.devices.getHref()} className={styles.devicesLink}>
            <span data-testid="devices-count">
              {devices.data ? devicesCountText(devices.data.length) : '…'}
            </span>
            <ChevronRightIcon width={18} height={18} />
          </Link>
        </Card>

        <Card aria-labelledby="security-log-summary-title">
          <h2 id="security-log-summary-title" className={blocks.cardTitle}>
            Журнал безопасности
          </h2>
          <Link to={paths.securityLog.getHref()} className={styles.devicesLink}>
            <span>Входы, смена пароля и другие события</span>
            <ChevronRightIcon width={18} height={18} />
          </Link>
        </Card>

        <div className={styles.wide}>
          <SecurityCard user={user} />
        </div>

        <div className={styles.wide}>
          <PasskeysSection />
        </div>

        <div className={styles.wide}>
          <AccountDataSection />
        </div>

        <div className={`${styles.logout} ${styles.wide}`}>
          <Button
            variant="danger"
            disabled={isLoggingOut}
            aria-busy={isLoggingOut}
            onClick={() => {
              setIsLoggingOut(true);
              void logout().finally(() => setIsLoggingOut(false));
            }}
          >
            Выйти из аккаунта
          </Button>
        </div>
      </div>

      <MyDataModal user={user} isOpen={isMyDataOpen} onOpenChange={setIsMyDataOpen} />
      <EmailChangeModal
        currentEmail={user.email}
        isOpen={isEmailOpen}
        onOpenChange={setIsEmailOpen}
      />
    </>
  );
}
