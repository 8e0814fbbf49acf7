import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TwoFactorEnableAnswer,
  type TwoFactorSetupForm,
  twoFactorSetupFormSchema,
} from '@portal/contracts/security';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { setRequiresTwoFactor } from '@/features/auth';
import { showFailure } from '@/shared/lib/show-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose, whenClosed } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import { postVerifyTwoFactor } from './api/verify-two-factor';
import { AuthenticatorCodeField } from './authenticator-code-field';
import { ProofStep } from './proof-step';
import styles from './security.module.css';
import { useProofThenRetry } from './use-proof-then-retry';

const FORM_ID = 'two-factor-connect-form';

/** 'JBSW Y3DP EHPK 3PXP': easier to type from the screen. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

type TwoFactorConnectDialogProps = {
  isOpen: boolean;
  /** null until the server handed out the key (it first wants a proof of the owner). */
  enrollment: TwoFactorEnableAnswer | null;
  /** The proof step's `onProven` while there is no key: asks for the key again. */
  onProvenForKey: () => Promise<void>;
  onClose: () => void;
  onClosed: () => void;
  onConnected: (recoveryCodes: string[]) => void;
};

/**
 * The QR code, the key for typing by hand, and the first code (1–6 digits). When the server wants
 * a fresh proof of the owner first (for the key, or again for the code), the dialog shows the proof
 * step and then repeats the call (`useProofThenRetry`: the setting's for the key, this dialog's for
 * the code).
 */
export function TwoFactorConnectDialog({
  isOpen,
  enrollment,
  onProvenForKey,
  onClose,
  onClosed,
  onConnected,
}: TwoFactorConnectDialogProps) {
  const dispatch = useAppDispatch();
  // Here rather than in the form: the typed code outlives the proof step, and is sent after it.
  const form = useForm<TwoFactorSetupForm>({
    resolver: zodResolver(twoFactorSetupFormSchema),
    defaultValues: { code: '' },
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const codeProof = useProofThenRetry((failure) => {
    // A refused code clears the requiresTwoFactor flag (a verified one sets it), and is shown
    // under the field; anything else as a toast: shown once.
    dispatch(setRequiresTwoFactor(false));
    showFailure(failure, ['code'], setError);
  });
  const isProving = enrollment === null || codeProof.isProving;

  // A proof asked for the code and left unanswered is forgotten when the dialog opens anew.
  useEffect(() => {
    if (isOpen) codeProof.reset();
  }, [isOpen, codeProof.reset]);

  const onSubmit = handleSubmit(({ code }) =>
    codeProof.attempt(async () => {
      const answer = await postVerifyTwoFactor(code);
      dispatch(setRequiresTwoFactor(true));
      notify.success(answer.message);
      onConnected(answer.recoveryCodes);
    }),
  );

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={whenClosed(onClose)}
      onClosed={onClosed}
      title="Подключение Google Authenticator"
      footer={
        isProving ? undefined : (
          <>
            <ModalClose>
              <Button variant="secondary">Отмена</Button>
            </ModalClose>
            <Button type="submit" form={FORM_ID} disabled={isSubmitting} aria-busy={isSubmitting}>
              Подключить
            </Button>
          </>
        )
      }
    >
      {isProving ? (
        <ProofStep
          onCancel={onClose}
          onProven={enrollment === null ? onProvenForKey : codeProof.onProven}
        />
      ) : (
        <form id={FORM_ID} className={blocks.stack} onSubmit={onSubmit} noValidate>
          <ol className={styles.steps}>
            <li>Установите Google Authenticator или другое приложение-аутентификатор.</li>
            <li>
              Отсканируйте QR-код в приложении:
              <img
                className={styles.qr}
                src={`data:image/png;base64,${enrollment.qrCode}`}
                alt="QR-код для приложения-аутентификатора"
                width={184}
                height={184}
              />
              Не получается отсканировать? Введите ключ вручную:
              <code className={styles.secret} data-testid="two-factor-secret">
                {groupedSecret(enrollment.secret)}
              </code>
            </li>
            <li>Введите код, который покажет приложение.</li>
          </ol>
          <AuthenticatorCodeField form={form} label="Код из приложения" isDigitsOnly />
        </form>
      )}
    </Modal>
  );
}
