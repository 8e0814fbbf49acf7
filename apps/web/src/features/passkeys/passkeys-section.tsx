import { zodResolver } from '@hookform/resolvers/zod';
import {
  PASSKEY_MESSAGES,
  type Passkey,
  type PasskeyNameForm,
  passkeyNameFormSchema,
} from '@portal/contracts/passkeys';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ProofStep, useProofThenRetry } from '@/features/security';
import type { ApiFailure } from '@/shared/api/api-failure';
import { createPasskey, isPasskeyCancelled, isWebAuthnAvailable } from '@/shared/lib/webauthn';
import { Button } from '@/shared/ui/button';
import { Card } from '@/shared/ui/card';
import { LoadFailed } from '@/shared/ui/load-failed';
import { Modal, ModalClose } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import {
  usePasskeyRegistrationOptionsMutation,
  usePasskeysQuery,
  useRegisterPasskeyMutation,
  useRemovePasskeyMutation,
  useRenamePasskeyMutation,
} from './api/passkeys-api';
import styles from './passkeys.module.css';
import { passkeyDates, removeLead, PASSKEY_TEXTS as TEXTS } from './passkeys-texts';

/** A refusal other than the proof's: its text in a toast, the dialog stays. */
const toastRefusal = (failure: ApiFailure) => notify.error(failure.text);

type Dialog =
  | { kind: 'add' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove'; passkey: Passkey }
  | null;

/**
 * «Ключи доступа» of the profile: the account's passkeys with their dates, adding one (the
 * browser's own dialog, after a fresh proof of the owner), renaming and removing (also after a
 * proof).
 */
export function PasskeysSection() {
  const list = usePasskeysQuery();
  const passkeys = list.data ?? null;
  const [registrationOptions] = usePasskeyRegistrationOptionsMutation();
  const [registerPasskey] = useRegisterPasskeyMutation();
  const [renamePasskey] = useRenamePasskeyMutation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const isSupported = isWebAuthnAvailable();

  const close = () => setDialog(null);

  return (
    <Card aria-labelledby="passkeys-title">
      <div className={styles.header}>
        <div>
          <h2 id="passkeys-title" className={styles.title}>
            {TEXTS.title}
          </h2>
          <p className={styles.lead}>{isSupported ? TEXTS.lead : TEXTS.unsupported}</p>
        </div>
        {isSupported && (
          <Button variant="secondary" size="sm" onClick={() => setDialog({ kind: 'add' })}>
            {TEXTS.add}
          </Button>
        )}
      </div>
      {passkeys === null && list.isError && !list.isFetching && (
        <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
      )}
      {passkeys !== null && passkeys.length === 0 && <p className={styles.lead}>{TEXTS.empty}</p>}
      {passkeys !== null && passkeys.length > 0 && (
        <ul className={styles.list} aria-label={TEXTS.title}>
          {passkeys.map((passkey) => (
            <li key={passkey.id} className={styles.item} data-testid="passkey">
              <div className={styles.itemText}>
                <span className={styles.name}>{passkey.name}</span>
                <span className={styles.dates}>
                  {passkeyDates(passkey.createdAt, passkey.lastUsedAt)}
                </span>
              </div>
              <div className={styles.actions}>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`${TEXTS.rename}: ${passkey.name}`}
                  onClick={() => setDialog({ kind: 'rename', passkey })}
                >
                  {TEXTS.rename}
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`${TEXTS.remove}: ${passkey.name}`}
                  onClick={() => setDialog({ kind: 'remove', passkey })}
                >
                  {TEXTS.remove}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      <NameDialog
        isOpen={dialog?.kind === 'add'}
        title={TEXTS.addTitle}
        lead={TEXTS.addLead}
        submitText={TEXTS.create}
        initialName={TEXTS.defaultName}
        onClose={close}
        onSubmit={async (name) => {
          const options = await registrationOptions().unwrap();
          let response: Awaited<ReturnType<typeof createPasskey>>;
          try {
            response = await createPasskey(options);
          } catch (error) {
            if (!isPasskeyCancelled(error)) notify.error(PASSKEY_MESSAGES.registrationFailed);
            return false;
          }
          const answer = await registerPasskey({ name, response }).unwrap();
          notify.success(answer.message);
          return true;
        }}
      />
      <NameDialog
        isOpen={dialog?.kind === 'rename'}
        title={TEXTS.renameTitle}
        submitText={TEXTS.save}
        initialName={dialog?.kind === 'rename' ? dialog.passkey.name : ''}
        onClose={close}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return false;
          await renamePasskey({ id: dialog.passkey.id, name }).unwrap();
          notify.success(PASSKEY_MESSAGES.renamed);
          return true;
        }}
      />
      <RemoveDialog passkey={dialog?.kind === 'remove' ? dialog.passkey : null} onClose={close} />
    </Card>
  );
}

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
function NameDialog({
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
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
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
        <form id={formId} className={styles.form} onSubmit={submit} noValidate>
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
  passkey: Passkey | null;
  onClose: () => void;
};

/** «Удалить ключ доступа?», then (when the server asks) the proof step, then the removal. */
function RemoveDialog({ passkey, onClose }: RemoveDialogProps) {
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
      isOpen={passkey !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
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
