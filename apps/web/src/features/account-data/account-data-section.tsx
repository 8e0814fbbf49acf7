import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectUser, signOutLocally } from '@/features/auth';
import { ProofStep, useProofThenRetry } from '@/features/security';
import { saveFile } from '@/shared/lib/save-file';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { Modal, whenClosed } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import styles from './account-data.module.css';
import { getExport, postDeletion } from './api/account-data';
import { useDeletionNoticeSeenMutation, useDeletionStatusQuery } from './api/account-data-api';
import { ACCOUNT_DATA_TEXTS as TEXTS } from './texts';

type Dialog = null | 'delete-confirm';

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

  const exportProof = useProofThenRetry((failure) =>
    notify.error(failure.text || TEXTS.exportFailed),
  );
  // A refused deletion goes back to its question, which says why.
  const deletionProof = useProofThenRetry((failure) => {
    setDialog('delete-confirm');
    setRefusal(failure.text);
  });

  async function download(): Promise<void> {
    setIsBusy(true);
    await exportProof.attempt(async () => {
      const { file, fileName } = await getExport();
      saveFile(file, fileName);
      notify.success(TEXTS.exportDone);
    });
    setIsBusy(false);
  }

  async function scheduleDeletion(): Promise<void> {
    setIsBusy(true);
    setRefusal(null);
    await deletionProof.attempt(async () => {
      const { dueAt } = await postDeletion();
      setDialog(null);
      notify.success(TEXTS.scheduledToast(dueAt));
      // Every session has ended, this one too: the server has nothing left to sign out.
      dispatch(signOutLocally());
      await navigate(paths.auth.getHref(), { replace: true });
    });
    setIsBusy(false);
  }

  /** The proof step left: the deletion's question goes too. */
  function cancelDeletion() {
    deletionProof.reset();
    setDialog(null);
  }

  function acknowledge() {
    // The banner goes at once; a failed answer shows it again next time: nothing lost.
    void noticeSeen('banner');
  }

  const points = user?.balanceStars ?? 0;

  return (
    <Card aria-labelledby="account-data-title">
      <h2 id="account-data-title" className={blocks.cardTitle}>
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
      <div className={blocks.settingRows}>
        <div className={blocks.settingRow}>
          <div className={blocks.settingText}>
            <span className={blocks.settingTitle}>{TEXTS.exportTitle}</span>
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
        <div className={blocks.settingRow}>
          <div className={blocks.settingText}>
            <span className={blocks.settingTitle}>{TEXTS.deleteTitle}</span>
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
        isOpen={exportProof.isProving}
        onOpenChange={whenClosed(exportProof.reset)}
        title={TEXTS.exportProofTitle}
      >
        <ProofStep onCancel={exportProof.reset} onProven={exportProof.onProven} />
      </Modal>
      <Modal
        isOpen={dialog === 'delete-confirm' && !deletionProof.isProving}
        onOpenChange={whenClosed(() => setDialog(null))}
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
        isOpen={deletionProof.isProving}
        onOpenChange={whenClosed(cancelDeletion)}
        title={TEXTS.confirmTitle}
      >
        <ProofStep onCancel={cancelDeletion} onProven={deletionProof.onProven} />
      </Modal>
    </Card>
  );
}
