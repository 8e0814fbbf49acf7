import { zodResolver } from '@hookform/resolvers/zod';
import { EMAIL_NOT_FOUND, FIELD_REQUIRED } from '@portal/contracts/messages';
import {
  type GoogleCodeForm,
  googleCodeFormSchema,
  secondFactorCodeSchema,
  type TwoFactorEnableAnswer,
} from '@portal/contracts/security';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { setRequiresTwoFactor } from '@/features/auth/auth-session';
import { selectUser } from '@/features/auth/user-slice';
import { errorText } from '@/shared/api/error-text';
import { isProofRequired } from '@/shared/api/proof-required';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { postDisableTwoFactor } from './api/disable-two-factor';
import { postEnableTwoFactor } from './api/enable-two-factor';
import { postRenewRecoveryCodes } from './api/renew-recovery-codes';
import { postVerifyTwoFactor } from './api/verify-two-factor';
import {
  fetchGoogleTwoFactorStatus,
  googleConnected,
  googleDisconnected,
  recoveryCodesRenewed,
  selectGoogleTwoFactor,
} from './google-two-factor-slice';
import { ProofStep } from './proof-step';
import { RecoveryCodesDialog } from './recovery-codes-dialog';
import styles from './security.module.css';

type Dialog = 'none' | 'connect' | 'disable' | 'renew';

/** 'JBSW Y3DP EHPK 3PXP': easier to type from the screen. */
function groupedSecret(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/**
 * The Google (authenticator app) line of the profile's security block (spec §2 "Profile", §4
 * "Google 2FA"): connect → QR code and a code → connected with recovery codes shown once;
 * disable through a confirmation and a code; renew the recovery codes with a code.
 */
export function GoogleTwoFactorSetting() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const { status, recoveryCodesLeft } = useAppSelector(selectGoogleTwoFactor);
  const [dialog, setDialog] = useState<Dialog>('none');
  const [enrollment, setEnrollment] = useState<TwoFactorEnableAnswer | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>([]);
  const [isStarting, setIsStarting] = useState(false);
  const isStartingRef = useRef(false);
  const actionsRef = useRef<HTMLDivElement>(null);
  const isConnected = status === 'connected';

  useEffect(() => {
    if (!isConnected || recoveryCodesLeft !== null) return;
    const request = dispatch(fetchGoogleTwoFactorStatus());
    return () => request.abort();
  }, [dispatch, isConnected, recoveryCodesLeft]);

  async function connect() {
    if (isStartingRef.current) return;
    // Spec §8: the authenticator is labelled with the account's address.
    if (!user?.email) {
      notify.error(EMAIL_NOT_FOUND);
      return;
    }
    isStartingRef.current = true;
    setIsStarting(true);
    try {
      setEnrollment(await postEnableTwoFactor());
      setDialog('connect');
    } catch (error) {
      // Without a fresh proof of the owner the dialog opens on the proof step, then asks again.
      if (isProofRequired(error)) setDialog('connect');
      else notify.error(errorText(error));
    } finally {
      isStartingRef.current = false;
      setIsStarting(false);
    }
  }

  // New codes are shown once the dialog that got them has closed (see Modal's onClosed).
  const pendingCodesRef = useRef<string[] | null>(null);
  function showRecoveryCodes(codes: string[]) {
    pendingCodesRef.current = codes;
    setDialog('none');
  }
  function showPendingCodes() {
    if (!pendingCodesRef.current) return;
    setRecoveryCodes(pendingCodesRef.current);
    pendingCodesRef.current = null;
  }

  return (
    <div className={styles.setting} data-testid="google-two-factor">
      <div className={styles.settingText}>
        <span className={styles.settingTitle}>Google Authenticator</span>
        <span className={styles.settingStatus} data-connected={isConnected || undefined}>
          {status === 'connected' && 'Подключено'}
          {status === 'unconnected' && 'Не подключено'}
          {status === 'unavailable' && 'Недоступно'}
        </span>
        {isConnected && recoveryCodesLeft !== null ? (
          <span className={styles.settingStatus}>
            Резервных кодов осталось: {recoveryCodesLeft}
          </span>
        ) : null}
      </div>
      <div className={styles.actions} ref={actionsRef}>
        {isConnected ? (
          <>
            <Button variant="ghost" size="sm" onClick={() => setDialog('renew')}>
              Новые резервные коды
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setDialog('disable')}>
              Отключить
            </Button>
          </>
        ) : (
          // Not disabled while the key is fetched: a disabled button drops the keyboard focus, and
          // the dialog could not give it back on closing. Clicks in the meantime are ignored.
          <Button
            size="sm"
            disabled={status === 'unavailable'}
            aria-disabled={isStarting || undefined}
            aria-busy={isStarting}
            onClick={() => void connect()}
          >
            Подключить
          </Button>
        )}
      </div>

      <ConnectDialog
        isOpen={dialog === 'connect'}
        enrollment={enrollment}
        onEnrolled={setEnrollment}
        onClose={() => setDialog('none')}
        onClosed={() => {
          setEnrollment(null);
          showPendingCodes();
        }}
        onConnected={(codes) => {
          dispatch(googleConnected({ recoveryCodes: codes.length }));
          showRecoveryCodes(codes);
        }}
      />
      <ConfirmWithCodeDialog
        isOpen={dialog === 'disable'}
        title="Отключить Google Authenticator?"
        description="Вход снова будет только по паролю. Для подтверждения введите код из приложения или один из резервных кодов."
        submitLabel="Отключить"
        onClose={() => setDialog('none')}
        onConfirm={async (code) => {
          const answer = await postDisableTwoFactor(code);
          dispatch(setRequiresTwoFactor(false));
          dispatch(googleDisconnected());
          notify.success(answer.message);
          setDialog('none');
        }}
      />
      <ConfirmWithCodeDialog
        isOpen={dialog === 'renew'}
        title="Новые резервные коды"
        description="Прежние резервные коды перестанут действовать. Для подтверждения введите код из приложения или один из резервных кодов."
        submitLabel="Получить новые коды"
        onClose={() => setDialog('none')}
        onClosed={showPendingCodes}
        onConfirm={async (code) => {
          const answer = await postRenewRecoveryCodes(code);
          dispatch(recoveryCodesRenewed(answer.recoveryCodes.length));
          notify.success(answer.message);
          showRecoveryCodes(answer.recoveryCodes);
        }}
      />
      <RecoveryCodesDialog
        codes={recoveryCodes}
        onClose={() => setRecoveryCodes([])}
        // It follows the connect or renew dialog: back to this line's first button.
        returnFocusTo={() => actionsRef.current?.querySelector('button')}
      />
    </div>
  );
}

type ConnectDialogProps = {
  isOpen: boolean;
  /** null until the server handed out the key (it first wants a proof of the owner). */
  enrollment: TwoFactorEnableAnswer | null;
  onEnrolled: (enrollment: TwoFactorEnableAnswer) => void;
  onClose: () => void;
  onClosed: () => void;
  onConnected: (recoveryCodes: string[]) => void;
};

/**
 * The QR code, the key for typing by hand, and the first code (1–6 digits). When the
 * server wants a fresh proof of the owner first (for the key, or again for the code), the dialog
 * shows the proof step and then repeats the call.
 */
function ConnectDialog({
  isOpen,
  enrollment,
  onEnrolled,
  onClose,
  onClosed,
  onConnected,
}: ConnectDialogProps) {
  const dispatch = useAppDispatch();
  const [isProofAskedForCode, setIsProofAskedForCode] = useState(false);
  const isProving = enrollment === null || isProofAskedForCode;
  useEffect(() => {
    if (!isOpen) setIsProofAskedForCode(false);
  }, [isOpen]);
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<GoogleCodeForm>({
    resolver: zodResolver(googleCodeFormSchema),
    defaultValues: { code: '' },
  });

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      const answer = await postVerifyTwoFactor(code);
      // Spec §4: a successful verify sets the requiresTwoFactor flag, a failed one clears it.
      dispatch(setRequiresTwoFactor(true));
      notify.success(answer.message);
      onConnected(answer.recoveryCodes);
    } catch (error) {
      if (isProofRequired(error)) {
        setIsProofAskedForCode(true);
        return;
      }
      dispatch(setRequiresTwoFactor(false));
      notify.error(errorText(error));
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
            <Button
              type="submit"
              form="google-connect-form"
              disabled={isSubmitting}
              aria-busy={isSubmitting}
            >
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
              setIsProofAskedForCode(false);
              await onSubmit();
            } else {
              onEnrolled(await postEnableTwoFactor());
            }
          }}
        />
      ) : (
        <form id="google-connect-form" className={styles.form} onSubmit={onSubmit} noValidate>
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
            maxLength={6}
            error={errors.code?.message}
          />
        </form>
      )}
    </Modal>
  );
}

/** Empty: 'Заполните поле'; otherwise six digits or a recovery code. */
const confirmCodeSchema = z.object({
  code: z.string().trim().min(1, FIELD_REQUIRED).pipe(secondFactorCodeSchema),
});

type ConfirmWithCodeDialogProps = {
  isOpen: boolean;
  title: string;
  description: string;
  submitLabel: string;
  onClose: () => void;
  onClosed?: () => void;
  /** Throws when the server refuses: its message becomes the toast (spec §8). */
  onConfirm: (code: string) => Promise<void>;
};

function ConfirmWithCodeDialog({
  isOpen,
  title,
  description,
  submitLabel,
  onClose,
  onClosed,
  onConfirm,
}: ConfirmWithCodeDialogProps) {
  const formId = useId();
  const {
    register,
    handleSubmit,
    reset,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<{ code: string }>({
    resolver: zodResolver(confirmCodeSchema),
    defaultValues: { code: '' },
  });

  // Every opening starts with an empty field.
  useEffect(() => {
    if (isOpen) reset({ code: '' });
  }, [isOpen, reset]);

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await onConfirm(code);
    } catch (error) {
      notify.error(errorText(error));
    }
  });

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onClosed={onClosed}
      title={title}
      description={description}
      footer={
        <>
          <ModalClose>
            <Button variant="secondary">Отмена</Button>
          </ModalClose>
          <Button type="submit" form={formId} disabled={isSubmitting} aria-busy={isSubmitting}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField
          {...register('code', { onChange: () => clearErrors('code') })}
          label="Код подтверждения"
          placeholder="000000"
          autoComplete="one-time-code"
          autoFocus
          error={errors.code?.message}
        />
      </form>
    </Modal>
  );
}
