import type { MessageAnswer } from '@portal/contracts/common';
import { useState } from 'react';
import { ProofStep, useProofThenRetry } from '@/features/security';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';

type UnlinkDialogProps = {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  /** «Отвязать Telegram?» */
  title: string;
  /** What the owner loses by unlinking. */
  description: string;
  unlink: () => Promise<MessageAnswer>;
  onUnlinked: () => void;
};

/**
 * Unlinking a way into the account (Telegram, Yandex ID): a confirmation, then, when the server
 * asks for it, the fresh proof of the owner, after which the unlinking is repeated. A refusal
 * (Yandex ID as the only way in) is shown in the dialog, where its advice can be read.
 */
export function UnlinkDialog({
  isOpen,
  onOpenChange,
  title,
  description,
  unlink,
  onUnlinked,
}: UnlinkDialogProps) {
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  // Refused, first time or after the proof: the dialog's message says why.
  const proof = useProofThenRetry((failure) => setError(failure.text));
  const step = proof.isProving ? 'proof' : 'confirm';

  function close() {
    onOpenChange(false);
    proof.reset();
    setError(null);
  }

  async function confirm() {
    setIsBusy(true);
    setError(null);
    await proof.attempt(async () => {
      const answer = await unlink();
      notify.success(answer.message);
      close();
      onUnlinked();
    });
    setIsBusy(false);
  }

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={(open) => (open ? onOpenChange(true) : close())}
      title={title}
      description={step === 'confirm' ? description : undefined}
      footer={
        step === 'confirm' ? (
          <>
            <Button variant="secondary" onClick={close}>
              Отмена
            </Button>
            <Button
              variant="danger"
              disabled={isBusy || error !== null}
              aria-busy={isBusy}
              onClick={() => void confirm()}
            >
              Отвязать
            </Button>
          </>
        ) : undefined
      }
    >
      {step === 'confirm' && error && (
        <p className={blocks.lead} role="alert">
          {error}
        </p>
      )}
      {step === 'proof' && <ProofStep onCancel={close} onProven={proof.onProven} />}
    </Modal>
  );
}
