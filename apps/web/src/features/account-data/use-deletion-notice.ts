import { useEffect } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import { readAccessToken } from '@/shared/api/token-storage';
import { notify } from '@/shared/ui/toast';
import { useDeletionNoticeSeenMutation, useDeletionStatusQuery } from './api/account-data-api';
import { ACCOUNT_DATA_TEXTS } from './texts';

/** The end of the session token this tab has asked about already. */
const CHECKED_KEY = 'deletion-notice-checked';

/**
 * After a sign-in, once the user is loaded: if that sign-in cancelled a deletion of the account,
 * says so in a toast, wherever the app opens. Asked once per session token and tab, not on every
 * page: a sign-in is the only thing that sets the notice. The read is the deletion status query;
 * the effect only tells its answer.
 */
export function useDeletionNotice(): void {
  const userId = useAppSelector(selectUser)?.id;
  const token = readAccessToken();
  const mark = userId && token ? token.slice(-12) : null;
  const isChecked = mark === null || sessionStorage.getItem(CHECKED_KEY) === mark;
  const status = useDeletionStatusQuery(undefined, { skip: isChecked });
  const [noticeSeen] = useDeletionNoticeSeenMutation();
  const isAnswered = status.isSuccess || status.isError;
  const isCancelledBySignIn = status.data?.isCancelledBySignIn === true;

  useEffect(() => {
    if (isChecked || !isAnswered || mark === null) return;
    sessionStorage.setItem(CHECKED_KEY, mark);
    if (!isCancelledBySignIn) return;
    notify.info(ACCOUNT_DATA_TEXTS.cancelledBySignIn);
    // A failed answer: the profile shows it again then, nothing lost.
    void noticeSeen('toast');
  }, [isChecked, isAnswered, isCancelledBySignIn, mark, noticeSeen]);
}
