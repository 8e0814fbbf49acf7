import type { User } from '@portal/contracts/auth';
import { useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { runtimeConfig } from '@/config/runtime-config';
import { fetchCurrentUser } from '@/features/auth';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { unlinkYandex } from './api/unlink';
import { StatusText } from './status-text';
import { yandexStatus } from './two-factor-statuses';
import { UnlinkDialog } from './unlink-dialog';

/**
 * The Yandex ID row: its status and, once linked, 'Отвязать' (a confirmation and a fresh proof).
 * The server refuses while Yandex ID is the account's only way in; the dialog then says to set a
 * password first.
 */
export function YandexSetting({ user }: { user: User }) {
  const dispatch = useAppDispatch();
  const [isUnlinkOpen, setIsUnlinkOpen] = useState(false);
  const status = yandexStatus(user, runtimeConfig.isYandexOffered);
  return (
    <div className={blocks.settingRow} data-testid="yandex-setting">
      <div className={blocks.settingText}>
        <span className={blocks.settingTitle}>Яндекс ID</span>
        <StatusText status={status} testId="yandex-status" />
      </div>
      {status === 'connected' && (
        <Button variant="secondary" size="sm" onClick={() => setIsUnlinkOpen(true)}>
          Отвязать
        </Button>
      )}
      <UnlinkDialog
        isOpen={isUnlinkOpen}
        onOpenChange={setIsUnlinkOpen}
        title="Отвязать Яндекс ID?"
        description="Входить через Яндекс ID станет нельзя: только по логину и паролю. Привязать Яндекс ID можно снова в любой момент."
        unlink={unlinkYandex}
        onUnlinked={() => void dispatch(fetchCurrentUser())}
      />
    </div>
  );
}
