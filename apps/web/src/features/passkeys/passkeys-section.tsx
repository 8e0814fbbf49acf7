import { zodResolver } from '@hookform/resolvers/zod';
import {
  PASSKEY_MESSAGES,
  type Passkey,
  type PasskeyNameForm,
  passkeyNameFormSchema,
} from '@portal/contracts/passkeys';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ProofStep } from '@/features/security';
import { failureOf, isProofRequired } from '@/shared/api/api-failure';
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

/** Marks a call the server refused until the session proves its owner (the proof step follows). */
class ProofNeeded extends Error {}

/** Runs a call; a 403 `proof_required` becomes ProofNeeded, any other refusal a toast. */
async function guarded<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    const failure = failureOf(error);
    if (isProofRequired(failure)) throw new ProofNeeded();
    notify.error(failure.text);
    return undefined;
  }
}

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
          const options = await guarded(() => registrationOptions().unwrap());
          if (!options) return false;
          let response: Awaited<ReturnType<typeof createPasskey>>;
          try {
            response = await createPasskey(options);
          } catch (error) {
            if (!isPasskeyCancelled(error)) notify.error(PASSKEY_MESSAGES.registrationFailed);
            return false;
          }
          const answer = await guarded(() => registerPasskey({ name, response }).unwrap());
          if (!answer) return false;
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
          const renamed = await guarded(() =>
            renamePasskey({ id: dialog.passkey.id, name }).unwrap(),
          );
          if (!renamed) return false;
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
  /** True when done (the dialog closes). May throw ProofNeeded: the proof step, then again. */
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
  const [isProving, setIsProving] = useState(false);
  const formId = `passkey-name-${title.length}`;
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<PasskeyNameForm>({
    resolver: zodResolver(passkeyNameFormSchema),
    defaultValues: { name: initialName },
  });

  useEffect(() => {
    if (isOpen) {
      reset({ name: initialName });
      setIsProving(false);
    }
  }, [isOpen, initialName, reset]);

  async function run(name: string) {
    try {
      if (await onSubmit(name)) onClose();
    } catch (error) {
      if (error instanceof ProofNeeded) setIsProving(true);
      else throw error;
    }
  }

  const submit = handleSubmit(({ name }) => run(name));

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={title}
      description={isProving ? undefined : lead}
      footer={
        isProving ? undefined : (
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
      {isProving ? (
        <ProofStep
          onCancel={onClose}
          onProven={async () => {
            setIsProving(false);
            await run(getValues('name').trim());
          }}
        />
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
  const [isProving, setIsProving] = useState(false);
  const [isBusy, setIsBusy] = useState(false);
  const [shown, setShown] = useState<Passkey | null>(passkey);
  // Keeps the name on screen while the dialog closes.
  useEffect(() => {
    if (passkey) {
      setShown(passkey);
      setIsProving(false);
    }
  }, [passkey]);

  async function remove() {
    if (!shown) return;
    setIsBusy(true);
    try {
      const answer = await guarded(() => removePasskey(shown.id).unwrap());
      if (!answer) return;
      notify.success(answer.message);
      onClose();
    } catch (error) {
      if (error instanceof ProofNeeded) setIsProving(true);
      else throw error;
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Modal
      isOpen={passkey !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={TEXTS.removeTitle}
      description={isProving || !shown ? undefined : removeLead(shown.name)}
      footer={
        isProving ? undefined : (
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
      {isProving && (
        <ProofStep
          onCancel={onClose}
          onProven={async () => {
            setIsProving(false);
            await remove();
          }}
        />
      )}
    </Modal>
  );
}
