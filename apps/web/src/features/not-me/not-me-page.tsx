import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '@/app/hooks';
import { paths } from '@/config/paths';
import { signedOut } from '@/features/auth';
import type { ResetPasswordEntry } from '@/features/reset-password';
import { toApiFailure } from '@/shared/api/api-failure';
import { clearAccessToken } from '@/shared/api/token-storage';
import blocks from '@/shared/ui/blocks.module.css';
import { BrandCard } from '@/shared/ui/brand-card';
import { Button } from '@/shared/ui/button';
import { notify } from '@/shared/ui/toast';
import { postNotMe } from './api/not-me';
import styles from './not-me.module.css';
import { NOT_ME_TEXTS } from './texts';

/**
 * /not-me?token=…: opened from the «Это был не я» link of a sign-in alert, signed in or not.
 * Opening it changes nothing (a mail scanner follows links too); the button POSTs the token. Then
 * every session has ended, this browser's included, and the reset page opens at its code step
 * for the account's address, where the mailed code sets a new password.
 */
export default function NotMePage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const [error, setError] = useState<string | null>(token ? null : NOT_ME_TEXTS.noToken);
  const [isBusy, setIsBusy] = useState(false);

  async function confirm() {
    setIsBusy(true);
    setError(null);
    try {
      const answer = await postNotMe(token);
      // This browser's session ended with the others.
      clearAccessToken();
      dispatch(signedOut());
      notify.success(answer.message);
      const entry: ResetPasswordEntry = {
        email: answer.email,
        resendAfterSeconds: answer.resendAfterSeconds,
      };
      await navigate(paths.resetPassword.getHref(), { replace: true, state: entry });
    } catch (failure) {
      setError(toApiFailure(failure).text);
      setIsBusy(false);
    }
  }

  return (
    <BrandCard>
      <div className={blocks.stack}>
        <h1 className={styles.title}>{NOT_ME_TEXTS.title}</h1>
        <p className={blocks.lead}>{NOT_ME_TEXTS.lead}</p>
        <p className={blocks.lead}>{NOT_ME_TEXTS.whatHappens}</p>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
        {token && !error && (
          <Button
            variant="danger"
            isFullWidth
            disabled={isBusy}
            aria-busy={isBusy}
            onClick={() => void confirm()}
          >
            {NOT_ME_TEXTS.confirm}
          </Button>
        )}
        {error ? (
          <Link className={styles.back} to={paths.resetPassword.getHref()}>
            {NOT_ME_TEXTS.resetInstead}
          </Link>
        ) : (
          <Link className={styles.back} to={paths.home.getHref()}>
            {NOT_ME_TEXTS.itWasMe}
          </Link>
        )}
      </div>
    </BrandCard>
  );
}
