import { zodResolver } from '@hookform/resolvers/zod';
import {
  ONE_TIME_CODE_LENGTH,
  RESEND_COUNTDOWN_FIRST_SECONDS,
  RESEND_COUNTDOWN_NEXT_SECONDS,
} from '@portal/contracts/constants';
import { REQUEST_FAILED } from '@portal/contracts/messages';
import { type PasswordChangeForm, passwordChangeFormSchema } from '@portal/contracts/security';
import axios from 'axios';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth/user-slice';
import { errorText } from '@/shared/api/error-text';
import { formatCountdown, useCountdown } from '@/shared/lib/use-countdown';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { CodeInput } from '@/shared/ui/code-input';
import { Modal } from '@/shared/ui/modal';
import { NewPasswordFields } from '@/shared/ui/new-password-fields';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { postPasswordChange } from './api/change-password';
import { postPasswordChangeCode } from './api/request-password-change-code';
import { selectIsGoogleConnected } from './google-two-factor-slice';
import styles from './security.module.css';

type Step = 'closed' | 'confirm' | 'code' | 'form' | 'saving';

const TITLES: Record<Exclude<Step, 'closed'>, string> = {
  confirm: 'Вы уверены, что хотите сменить пароль?',
  code: 'Подтверждение',
  form: 'Смена пароля',
  saving: 'Смена пароля',
};

type FailureAnswer = { message?: unknown; errors?: Record<string, string[]> };

/**
 * The password line of the profile's security block and its flow (spec §2 "Profile"): 'Вы
 * уверены…?' (Да/Нет) → a code (mailed, or the authenticator's when Google is connected) → the
 * form → 'Подождите пару секунд' while saving → the server's message as a toast.
 */
export function PasswordChangeEntry() {
  const user = useAppSelector(selectUser);
  const isGoogleConnected = useAppSelector(selectIsGoogleConnected);
  const [step, setStep] = useState<Step>('closed');
  const [usesAuthenticator, setUsesAuthenticator] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [logoutOtherSessions, setLogoutOtherSessions] = useState(false);
  const sentBefore = useRef(false);
  const resend = useCountdown();

  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    reset,
    formState: { errors },
  } = useForm<PasswordChangeForm>({
    resolver: zodResolver(passwordChangeFormSchema),
    defaultValues: { oldPassword: '', newPassword: '', repeatPassword: '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const clearing = (field: keyof PasswordChangeForm) => ({ onChange: () => clearErrors(field) });

  function close() {
    setStep('closed');
    setCode('');
    setCodeError(null);
    setLogoutOtherSessions(false);
    reset();
  }

  /** Mails a code; true when there is one to type (a fresh one, or one still inside its countdown). */
  async function sendCode(): Promise<boolean> {
    setIsSending(true);
    try {
      const answer = await postPasswordChangeCode();
      notify.success(answer.message);
      resend.start(
        sentBefore.current ? RESEND_COUNTDOWN_NEXT_SECONDS : RESEND_COUNTDOWN_FIRST_SECONDS,
      );
      sentBefore.current = true;
      return true;
    } catch (error) {
      notify.error(errorText(error));
      // Inside the countdown the letter sent a moment ago still holds a valid code.
      if (axios.isAxiosError(error) && error.response?.status === 429) {
        const retryAfter = Number(error.response.headers['retry-after']);
        if (retryAfter > 0) resend.start(retryAfter);
        return true;
      }
      return false;
    } finally {
      setIsSending(false);
    }
  }

  async function startConfirmation() {
    setCode('');
    setCodeError(null);
    setUsesAuthenticator(isGoogleConnected);
    if (isGoogleConnected) {
      setStep('code');
      return;
    }
    setStep((await sendCode()) ? 'code' : 'closed');
  }

  const save = handleSubmit(async ({ oldPassword, newPassword }) => {
    setStep('saving');
    try {
      const answer = await postPasswordChange({
        oldPassword,
        newPassword,
        code,
        logoutOtherSessions,
      });
      if (answer.status === 'ok') {
        notify.success(answer.message);
        close();
      } else {
        notify.error(answer.message);
        setStep('form');
      }
    } catch (error) {
      if (!axios.isAxiosError(error) || !error.response) {
        // Spec §8: unknown errors of the password change are only logged.
        console.warn('password change failed', error);
        setStep('form');
        return;
      }
      const data = (error.response.data ?? {}) as FailureAnswer;
      notify.error(typeof data.message === 'string' ? data.message : REQUEST_FAILED);
      const fields = data.errors ?? {};
      if (fields.code?.[0]) {
        setCode('');
        setCodeError(fields.code[0]);
        setStep('code');
        return;
      }
      if (fields.oldPassword?.[0]) setError('oldPassword', { message: fields.oldPassword[0] });
      if (fields.newPassword?.[0]) setError('newPassword', { message: fields.newPassword[0] });
      setStep('form');
    }
  });

  const isOpen = step !== 'closed';
  return (
    <div className={styles.setting} data-testid="password-change">
      <div className={styles.settingText}>
        <span className={styles.settingTitle}>Пароль</span>
        <span className={styles.settingStatus}>
          Для смены понадобится текущий пароль и код подтверждения
        </span>
      </div>
      <div className={styles.actions}>
        <Button variant="secondary" size="sm" onClick={() => setStep('confirm')}>
          Сменить пароль
        </Button>
      </div>

      <Modal
        isOpen={isOpen}
        onOpenChange={(open) => {
          if (!open && step !== 'saving') close();
        }}
        title={step === 'closed' ? TITLES.confirm : TITLES[step]}
        footer={
          step === 'confirm' ? (
            <>
              <Button variant="secondary" onClick={close}>
                Нет
              </Button>
              <Button
                onClick={() => void startConfirmation()}
                disabled={isSending}
                aria-busy={isSending}
              >
                Да
              </Button>
            </>
          ) : step === 'form' ? (
            <>
              <Button variant="secondary" onClick={() => setStep('code')}>
                Назад
              </Button>
              <Button type="submit" form="password-change-form">
                Сохранить
              </Button>
            </>
          ) : undefined
        }
      >
        {step === 'code' && (
          <div className={styles.form}>
            <p className={styles.lead}>
              {usesAuthenticator ? (
                'Введите код из приложения Google Authenticator.'
              ) : (
                <>
                  Мы отправили код на <strong>{user?.email}</strong>. Введите его, чтобы сменить
                  пароль.
                </>
              )}
            </p>
            <div className={styles.codeField}>
              <CodeInput
                label={usesAuthenticator ? 'Код из приложения' : 'Код из письма'}
                value={code}
                length={ONE_TIME_CODE_LENGTH}
                isInvalid={codeError !== null}
                autoFocus
                onChange={(value) => {
                  setCode(value);
                  if (codeError) setCodeError(null);
                  if (value.length === ONE_TIME_CODE_LENGTH) setStep('form');
                }}
              />
              <p className={styles.codeError} role="alert">
                {codeError}
              </p>
            </div>
            {usesAuthenticator ? null : (
              <button
                type="button"
                className={styles.linkButton}
                disabled={isSending || resend.secondsLeft > 0}
                onClick={() => void sendCode()}
              >
                {resend.secondsLeft > 0
                  ? `Отправить код повторно через ${formatCountdown(resend.secondsLeft)}`
                  : 'Отправить код повторно'}
              </button>
            )}
          </div>
        )}
        {step === 'form' && (
          <form id="password-change-form" className={styles.form} onSubmit={save} noValidate>
            <TextField
              {...register('oldPassword', clearing('oldPassword'))}
              type="password"
              label="Текущий пароль"
              autoComplete="current-password"
              autoFocus
              error={errors.oldPassword?.message}
            />
            <NewPasswordFields
              newPassword={{
                ...register('newPassword', clearing('newPassword')),
                error: errors.newPassword?.message,
              }}
              repeatPassword={{
                ...register('repeatPassword', clearing('repeatPassword')),
                error: errors.repeatPassword?.message,
              }}
            />
            <Checkbox
              checked={logoutOtherSessions}
              onChange={(event) => setLogoutOtherSessions(event.target.checked)}
            >
              Выйти на всех остальных устройствах
            </Checkbox>
          </form>
        )}
        {step === 'saving' && (
          <div className={styles.saving} role="status">
            <span className={styles.spinner} aria-hidden="true" />
            Подождите пару секунд
          </div>
        )}
      </Modal>
    </div>
  );
}
