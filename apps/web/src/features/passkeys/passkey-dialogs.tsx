import { zodResolver } from '@hookform/resolvers/zod';
import {
  type Passkey,
  type PasskeyNameForm,
  passkeyNameFormSchema,
} from '@portal/contracts/passkeys';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ProofStep, useProofThenRetry } from '@/features/security';
import type { ApiFailure } from '@/shared/api/api-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose, whenClosed } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { useRemovePasskeyMutation } from './api/passkeys-api';
import { removeLead, PASSKEY_TEXTS as TEXTS } from './passkeys-texts';

// The dialogs of «Ключи доступа» (./passkeys-section.tsx), loaded when one first opens.

/** A refusal other than the proof's: its text in a toast, the dialog stays. */
const toastRefusal = (failure: ApiFailure) => notify.error(failure.text);

type NameDialogProps = {
  isOpen: boolean;
  title: string;
  lead?: string;
  submitText: string;
  initialName: string;
  onClose: () => void;
  /**
   * True when done (the dialog closes). A refusal it throws is a toast, or, when the server wants
   * a fresh proof of the owner, the proof step, then the same again.
   */
  onSubmit: (name: string) => Promise<boolean>;
};

/** A dialog with the name field: adding (then the browser's dialog) and renaming. */
export function NameDialog({
  isOpen,
  title,
  lead,
  submitText,
  initialName,
  onClose,
  onSubmit,
}: NameDialogProps) {
  const proof = useProofThenRetry(toastRefusal);
  const formId = `passkey-name-${title.length}`;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasskeyNameForm>({
    resolver: zodResolver(passkeyNameFormSchema),
    defaultValues: { name: initialName },
  });

  useEffect(() => {
    if (isOpen) {
      reset({ name: initialName });
      proof.reset();
    }
  }, [isOpen, initialName, reset, proof.reset]);

  const submit = handleSubmit(({ name }) =>
    proof.attempt(async () => {
      if (await onSubmit(name)) onClose();
    }),
  );

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={whenClosed(onClose)}
      title={title}
      description={proof.isProving ? undefined : lead}
      footer={
        proof.isProving ? undefined : (
          <>
            <ModalClose>
              <Button variant="secondary">{TEXTS.cancel}</Button>
            </ModalClose>
            <Button type="submit" form={formId} disabled={isSubmitting} aria-busy={isSubmitting}>
              {submitText}
            </Button>
          </>
        )
      }
    >
      {proof.isProving ? (
        <ProofStep onCancel={onClose} onProven={proof.onProven} />
      ) : (
        <form id={formId} className={blocks.stack} onSubmit={submit} noValidate>
          <TextField
            {...register('name')}
            label={TEXTS.nameLabel}
            placeholder={TEXTS.namePlaceholder}
            maxLength={64}
            autoComplete="off"
            error={errors.name?.message}
          />
        </form>
      )}
    </Modal>
  );
}

type RemoveDialogProps = {
  isOpen: boolean;
  /** The passkey to remove while the dialog is open. */
  passkey: Passkey | null;
  onClose: () => void;
};

/** «Удалить ключ доступа?», then (when the server asks) the proof step, then the removal. */
export function RemoveDialog({ isOpen, passkey, onClose }: RemoveDialogProps) {
  const [removePasskey] = useRemovePasskeyMutation();
  const proof = useProofThenRetry(toastRefusal);
  const [isBusy, setIsBusy] = useState(false);
  const [shown, setShown] = useState<Passkey | null>(passkey);
  // Keeps the name on screen while the dialog closes.
  useEffect(() => {
    if (passkey) {
      setShown(passkey);
      proof.reset();
    }
  }, [passkey, proof.reset]);

  async function remove() {
    if (!shown) return;
    setIsBusy(true);
    await proof.attempt(async () => {
      const answer = await removePasskey(shown.id).unwrap();
      notify.success(answer.message);
      onClose();
    });
    setIsBusy(false);
  }

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={whenClosed(onClose)}
      title={TEXTS.removeTitle}
      description={proof.isProving || !shown ? undefined : removeLead(shown.name)}
      footer={
        proof.isProving ? undefined : (
          <>
            <ModalClose>
              <Button variant="secondary">{TEXTS.cancel}</Button>
            </ModalClose>
            <Button
              variant="danger"
              disabled={isBusy}
              aria-busy={isBusy}
              onClick={() => void remove()}
            >
              {TEXTS.remove}
            </Button>
          </>
        )
      }
    >
      {proof.isProving && <ProofStep onCancel={onClose} onProven={proof.onProven} />}
    </Modal>
  );
}
