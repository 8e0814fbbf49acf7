import type { User } from '@portal/contracts/auth';
import { runtimeConfig } from '@/config/runtime-config';
import { PasswordChangeEntry, TwoFactorSetting } from '@/features/security';
import blocks from '@/shared/ui/blocks.module.css';
import { Card } from '@/shared/ui/card';
import { useTelegramLinkedQuery } from './api/telegram-api';
import styles from './profile.module.css';
import { SignInAlertsSetting } from './sign-in-alerts-setting';
import { StatusText } from './status-text';
import { TelegramSetting } from './telegram-setting';
import { phoneStatus, telegramCheckStatus, telegramStatus } from './two-factor-statuses';
import { YandexSetting } from './yandex-setting';

/** Security: the password and the second factors (authenticator, Telegram, phone, Yandex). */
export function SecurityCard({ user }: { user: User }) {
  const telegram = telegramStatus(
    telegramCheckStatus(useTelegramLinkedQuery()),
    runtimeConfig.isTelegramOffered,
  );
  return (
    <Card aria-labelledby="security-title">
      <h2 id="security-title" className={blocks.cardTitle}>
        Безопасность
      </h2>
      <div className={styles.embeddedRow}>
        <PasswordChangeEntry />
      </div>
      <SignInAlertsSetting user={user} />
      <h3 className={styles.sectionTitle}>Двухфакторная аутентификация</h3>
      <div className={blocks.settingRows}>
        <div className={`${blocks.settingRow} ${styles.embeddedRow}`}>
          <TwoFactorSetting />
        </div>
        <TelegramSetting />
        {/* The phone has no action button. */}
        <div className={blocks.settingRow}>
          <div className={blocks.settingText}>
            <span className={blocks.settingTitle}>Телефон</span>
            <StatusText status={phoneStatus(user, telegram)} testId="phone-status" />
          </div>
        </div>
        <YandexSetting user={user} />
      </div>
    </Card>
  );
}
