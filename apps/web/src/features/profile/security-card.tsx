import type { User } from '@portal/contracts/auth';
import { useAppSelector } from '@/app/hooks';
import { GoogleTwoFactorSetting } from '@/features/security/google-two-factor-setting';
import { PasswordChangeEntry } from '@/features/security/password-change-entry';
import { Card } from '@/shared/ui/card';
import styles from './profile-page.module.css';
import { StatusText } from './status-text';
import { TelegramSetting } from './telegram-setting';
import { selectTelegramStatus } from './telegram-slice';
import { phoneStatus, yandexStatus } from './two-factor-statuses';

/** Security: the password entry point and the 2FA methods google, telegram, phone, yandex. */
export function SecurityCard({ user }: { user: User }) {
  const telegram = useAppSelector(selectTelegramStatus);
  return (
    <Card aria-labelledby="security-title">
      <h2 id="security-title" className={styles.cardTitle}>
        Безопасность
      </h2>
      <div className={styles.embeddedRow}>
        <PasswordChangeEntry />
      </div>
      <h3 className={styles.sectionTitle}>Двухфакторная аутентификация</h3>
      <div className={styles.rows}>
        <div className={`${styles.row} ${styles.embeddedRow}`}>
          <GoogleTwoFactorSetting />
        </div>
        <TelegramSetting />
        {/* Spec §2: phone and Yandex have no action buttons. */}
        <div className={styles.row}>
          <div className={styles.rowText}>
            <span className={styles.rowTitle}>Телефон</span>
            <StatusText status={phoneStatus(user, telegram)} testId="phone-status" />
          </div>
        </div>
        <div className={styles.row}>
          <div className={styles.rowText}>
            <span className={styles.rowTitle}>Яндекс ID</span>
            <StatusText status={yandexStatus(user)} testId="yandex-status" />
          </div>
        </div>
      </div>
    </Card>
  );
}
