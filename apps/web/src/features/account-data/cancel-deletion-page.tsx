import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { toApiFailure } from '@/shared/api/api-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { BrandCard } from '@/shared/ui/brand-card';
import { Button } from '@/shared/ui/button';
import styles from './account-data.module.css';
import { postCancelDeletion } from './api/account-data';
import { ACCOUNT_DATA_TEXTS as TEXTS } from './texts';

/**
 * /account/cancel-deletion?token=…, opened from the letter. Opening it changes nothing (a mail
 * scanner that follows the link cancels nothing); the button posts the token.
 */
export default function CancelDeletionPage() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  async function cancel() {
    setIsBusy(true);
    try {
      setOutcome({ ok: true, text: await postCancelDeletion(token) });
    } catch (error) {
      setOutcome({ ok: false, text: toApiFailure(error).text });
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <BrandCard>
      <div className={blocks.stack}>
        <h1 className={styles.pageTitle}>{TEXTS.cancelPageTitle}</h1>
        {outcome ? (
          <p role={outcome.ok ? 'status' : 'alert'} data-testid="cancel-outcome">
            {outcome.text}
          </p>
        ) : (
          <p className={styles.muted}>{token ? TEXTS.cancelPageLead : TEXTS.cancelPageMissing}</p>
        )}
        {!outcome?.ok && token && (
          <Button isFullWidth disabled={isBusy} aria-busy={isBusy} onClick={() => void cancel()}>
            {TEXTS.cancelDeletion}
          </Button>
        )}
        <Link to={paths.auth.getHref()}>{TEXTS.toSignIn}</Link>
      </div>
    </BrandCard>
  );
}
