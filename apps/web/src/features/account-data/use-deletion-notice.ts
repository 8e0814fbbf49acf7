import { useEffect } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import { readAccessToken } from '@/shared/api/token-storage';
import { notify } from '@/shared/ui/toast';
import { getDeletionStatus, postDeletionNoticeSeen } from './api/account-data';
import { ACCOUNT_DATA_TEXTS } from './texts';

/** The end of the session token this tab has asked about already. */
const CHECKED_KEY = 'deletion-notice-checked';

/**
 * After a sign-in, once the user is loaded: if that sign-in cancelled a deletion of the account,
 * says so in a toast, wherever the app opens. Asked once per session token and tab, not on every
 * page: a sign-in is the only thing that sets the notice.
 */
export function useDeletionNotice(): void {
  const userId = useAppSelector(selectUser)?.id;
  useEffect(() => {
    const token = readAccessToken();
    if (!userId || !token) return;
    const mark = token.slice(-12);
    if (sessionStorage.getItem(CHECKED_KEY) === mark) return;
    sessionStorage.setItem(CHECKED_KEY, mark);
    getDeletionStatus().then(
      (status) => {
        if (!status.isCancelledBySignIn) return;
        notify.info(ACCOUNT_DATA_TEXTS.cancelledBySignIn);
        void postDeletionNoticeSeen().catch(() => {
          // The profile shows it again then: nothing lost.
        });
      },
      () => {
        // Only the notice depends on it.
      },
    );
  }, [userId]);
}
