import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectUser, signOutLocally } from '@/features/auth';
import { ProofStep } from '@/features/security';
import { isProofRequired, toApiFailure } from '@/shared/api/api-failure';
import { saveFile } from '@/shared/lib/save-file';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { Modal } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import styles from './account-data.module.css';
import { getExport, postDeletion } from './api/account-data';
import { useDeletionNoticeSeenMutation, useDeletionStatusQuery } from './api/account-data-api';
import { ACCOUNT_DATA_TEXTS as TEXTS } from './texts';

type Dialog = null | 'export-proof' | 'delete-confirm' | 'delete-proof';

/**
 * «Мои данные и аккаунт» on the profile: «Скачать мои данные» and «Удалить аккаунт», both after a
 * fresh proof of the owner (the proof step appears when the server asks for it). Says when a
 * sign-in has just cancelled a deletion (scheduling one ends every session, so a signed-in page
 * never sees one waiting).
 */
export function AccountDataSection() {
  const user = useAppSelector(selectUser);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // Only the banners depend on it: the section works without (a failed read shows none).
  const status = useDeletionStatusQuery().data;
  const [noticeSeen] = useDeletionNoticeSeenMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function download(): Promise<void> {
    setIsBusy(true);
    try {
      const { file, fileName } = await getExport();
      saveFile(file, fileName);
      setDialog(null);
      notify.success(TEXTS.exportDone);
    } catch (error) {
      const failure = toApiFailure(error);
      if (isProofRequired(failure)) setDialog('export-proof');
      else notify.error(failure.text || TEXTS.exportFailed);
    } finally {
      setIsBusy(false);
    }
  }

  async function scheduleDeletion(): Promise<void> {
    setIsBusy(true);
    setRefusal(null);
    try {
      const { dueAt } = await postDeletion();
      setDialog(null);
      notify.success(TEXTS.scheduledToast(dueAt));
      // Every session has ended, this one too: the server has nothing left to sign out.
      dispatch(signOutLocally());
      await navigate(paths.auth.getHref(), { replace: true });
    } catch (error) {
      const failure = toApiFailure(error);
      if (isProofRequired(failure)) setDialog('delete-proof');
      else {
        setDialog('delete-confirm');
        setRefusal(failure.text);
      }
    } finally {
      setIsBusy(false);
    }
  }

  function acknowledge() {
    // The banner goes at once; a failed answer shows it again next time: nothing lost.
    void noticeSeen('banner');
  }

  const points = user?.balanceStars ?? 0;

  return (
    <Card aria-labelledby="account-data-title">
      <h2 id="account-data-title" className={styles.cardTitle}>
        {TEXTS.sectionTitle}
      </h2>
      {status?.isCancelledBySignIn && (
        <div className={styles.banner} role="status" data-testid="deletion-cancelled">
          <p>{TEXTS.cancelledBySignIn}</p>
          <Button size="sm" variant="secondary" onClick={acknowledge}>
            {TEXTS.understood}
          </Button>
        </div>
      )}
      <div className={styles.rows}>
        <div className={styles.row}>
          <div className={styles.rowText}>
            <span className={styles.rowTitle}>{TEXTS.exportTitle}</span>
            <span className={styles.muted}>{TEXTS.exportHint}</span>
          </div>
          <Button
            variant="secondary"
            size="sm"
            disabled={isBusy}
            aria-busy={isBusy && dialog === null}
            onClick={() => void download()}
          >
            {TEXTS.exportButton}
          </Button>
        </div>
        <div className={styles.row}>
          <div className={styles.rowText}>
            <span className={styles.rowTitle}>{TEXTS.deleteTitle}</span>
            <span className={styles.muted}>{TEXTS.deleteHint}</span>
          </div>
          <Button
            variant="danger"
            size="sm"
            onClick={() => {
              setRefusal(null);
              setDialog('delete-confirm');
            }}
          >
            {TEXTS.deleteButton}
          </Button>
        </div>
      </div>

      <Modal
        isOpen={dialog === 'export-proof'}
        onOpenChange={(open) => !open && setDialog(null)}
        title={TEXTS.exportProofTitle}
      >
        <ProofStep onCancel={() => setDialog(null)} onProven={download} />
      </Modal>
      <Modal
        isOpen={dialog === 'delete-confirm'}
        onOpenChange={(open) => !open && setDialog(null)}
        title={TEXTS.confirmTitle}
        footer={
          <>
            <Button variant="secondary" onClick={() => setDialog(null)}>
              {TEXTS.cancel}
            </Button>
            <Button
              variant="danger"
              disabled={isBusy}
              aria-busy={isBusy}
              onClick={() => void scheduleDeletion()}
            >
              {TEXTS.confirmButton}
            </Button>
          </>
        }
      >
        <div className={styles.paragraphs}>
          {TEXTS.confirmParagraphs(points).map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        {refusal && (
          <p className={styles.refusal} role="alert" data-testid="deletion-refusal">
            {refusal}
          </p>
        )}
      </Modal>
      <Modal
        isOpen={dialog === 'delete-proof'}
        onOpenChange={(open) => !open && setDialog(null)}
        title={TEXTS.confirmTitle}
      >
        <ProofStep onCancel={() => setDialog(null)} onProven={scheduleDeletion} />
      </Modal>
    </Card>
  );
}
