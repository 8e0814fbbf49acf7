import { zodResolver } from '@hookform/resolvers/zod';
import {
  type TwoFactorEnableAnswer,
  type TwoFactorSetupForm,
  twoFactorSetupFormSchema,
} from '@portal/contracts/security';
import { TYPED_CODE_MAX_LENGTH } from '@portal/contracts/typed-code';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { setRequiresTwoFactor } from '@/features/auth';
import { isProofRequired, toApiFailure } from '@/shared/api/api-failure';
import { showFailure } from '@/shared/lib/show-failure';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { postEnableTwoFactor } from './api/enable-two-factor';
import { postVerifyTwoFactor } from './api/verify-two-factor';
import { ProofStep } from './proof-step';
import styles from './security.module.css';

const FORM_ID = 'two-factor-connect-form';

/** 'JBSW Y3DP EHPK 3PXP': easier to type from the screen. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

type TwoFactorConnectDialogProps = {
  isOpen: boolean;
  /** null until the server handed out the key (it first wants a proof of the owner). */
  enrollment: TwoFactorEnableAnswer | null;
  /** The server wanted a fresh proof again before it took the code. */
  isProofAskedForCode: boolean;
  onClose: () => void;
  onClosed: () => void;
  onProofAskedForCode: () => void;
  onProofGivenForCode: () => void;
  onEnrolled: (enrollment: TwoFactorEnableAnswer) => void;
  onConnected: (recoveryCodes: string[]) => void;
};

/**
 * The QR code, the key for typing by hand, and the first code (1–6 digits). When the server wants
 * a fresh proof of the owner first (for the key, or again for the code), the dialog shows the proof
 * step and then repeats the call.
 */
export function TwoFactorConnectDialog({
  isOpen,
  enrollment,
  isProofAskedForCode,
  onClose,
  onClosed,
  onProofAskedForCode,
  onProofGivenForCode,
  onEnrolled,
  onConnected,
}: TwoFactorConnectDialogProps) {
  const dispatch = useAppDispatch();
  const isProving = enrollment === null || isProofAskedForCode;
  // Here rather than in the form: the typed code outlives the proof step, and is sent after it.
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorSetupForm>({
    resolver: zodResolver(twoFactorSetupFormSchema),
    defaultValues: { code: '' },
  });

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      const answer = await postVerifyTwoFactor(code);
      // A verified code sets the requiresTwoFactor flag, a refused one clears it.
      dispatch(setRequiresTwoFactor(true));
      notify.success(answer.message);
      onConnected(answer.recoveryCodes);
    } catch (error) {
      const failure = toApiFailure(error);
      if (isProofRequired(failure)) {
        onProofAskedForCode();
        return;
      }
      dispatch(setRequiresTwoFactor(false));
      // A refused code under the field, anything else as a toast: shown once.
      showFailure(failure, ['code'], setError);
    }
  });

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
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
          onProven={async () => {
            if (isProofAskedForCode) {
              onProofGivenForCode();
              await onSubmit();
            } else {
              onEnrolled(await postEnableTwoFactor());
            }
          }}
        />
      ) : (
        <form id={FORM_ID} className={styles.form} onSubmit={onSubmit} noValidate>
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
          <TextField
            {...register('code', { onChange: () => clearErrors('code') })}
            label="Код из приложения"
            placeholder="000000"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={TYPED_CODE_MAX_LENGTH}
            error={errors.code?.message}
          />
        </form>
      )}
    </Modal>
  );
}
