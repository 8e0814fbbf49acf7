import { REGISTRATION_CODE_LENGTH } from '@portal/contracts/constants';
import { CODE_WRONG } from '@portal/contracts/messages';
import { useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import type { ApiFailure } from '@/shared/api/api-failure';
import { formatCountdown } from '@/shared/lib/use-countdown';
import { useMailedCode } from '@/shared/lib/use-mailed-code';
import { Button } from '@/shared/ui/button';
import { CodeInput } from '@/shared/ui/code-input';
import heading from '@/shared/ui/form-heading.module.css';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import { notify } from '@/shared/ui/toast';
import styles from './auth-forms.module.css';
import { selectAuth } from './auth-slice';
import { verifyRegistration } from './auth-thunks';
import { delayCodeResend } from './code-step-actions';
import type { PendingConfirmation } from './pending-confirmation';

type RegistrationCodeStepProps = {
  confirmation: PendingConfirmation;
  /**
   * Asks the server for a new code; answers the server's message. Null once the page was
   * reloaded: the request held the password, which is never stored.
   */
  resendCode: (() => Promise<string>) | null;
  onBack: () => void;
  /** A new code without `resendCode`: the form it came from, sent again, mails one. */
  onResendFromForm: () => void;
  onConfirmed: () => void;
};

/** What the boxes say about a refused code: the server's words, else 'Неверный код'. */
function codeErrorText(failure: ApiFailure): string {
  if (failure.status === null) return failure.text;
  return failure.errors.code?.[0] ?? failure.message ?? CODE_WRONG;
}

/**
 * The code screen after registration: six boxes that submit themselves when full,
 * red boxes and the reason on a refusal, Back, and a resend button held by the 60 s / 30 s
 * countdown (the server's `Retry-After` wins when it knows better), which goes on where it was
 * after a reload.
 */
export function RegistrationCodeStep({
  confirmation,
  resendCode,
  onBack,
  onResendFromForm,
  onConfirmed,
}: RegistrationCodeStepProps) {
  const { email } = confirmation;
  const dispatch = useAppDispatch();
  const { registerStatus } = useAppSelector(selectAuth);
  const isVerifying = registerStatus === 'loading';
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // The first letter went out with the registration; a new one empties the boxes.
  const mailedCode = useMailedCode(async () => ({ message: (await resendCode?.()) ?? '' }), {
    isFirstSent: true,
    firstWaitSeconds: Math.max(0, Math.ceil((confirmation.resendAt - Date.now()) / 1000)),
    onCountdown: (seconds) => dispatch(delayCodeResend(seconds, confirmation)),
    onSent: () => {
      setCode('');
      setError(null);
      inputRef.current?.focus();
    },
  });
  const { secondsLeft } = mailedCode;

  // The refused digits stay (red) but are selected, so the next digit typed starts a new code.
  function selectWholeCode() {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    input.setSelectionRange(0, input.value.length);
  }

  async function verify(value: string) {
    setError(null);
    const result = await dispatch(verifyRegistration({ code: value, email }));
    if (verifyRegistration.fulfilled.match(result)) {
      notify.success(result.payload.message);
      onConfirmed();
      return;
    }
    setError(result.payload ? codeErrorText(result.payload) : CODE_WRONG);
    selectWholeCode();
  }

  return (
    <div className={styles.codeStep}>
      <button type="button" className={styles.back} onClick={onBack}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </button>
      <h1 className={heading.title}>Подтверждение почты</h1>
      <p className={heading.lead}>
        Мы отправили код из {REGISTRATION_CODE_LENGTH} цифр на
        <strong className={styles.email}>{email}</strong>
        Введите его, чтобы завершить регистрацию.
      </p>
      <div className={styles.code}>
        <CodeInput
          ref={inputRef}
          label="Код из письма"
          value={code}
          length={REGISTRATION_CODE_LENGTH}
          onChange={(value) => {
            setCode(value);
            if (error) setError(null);
            // Not input-otp's onComplete: it stays silent when a full code replaces a full code
            // (pasting the right code over a refused one).
            if (value.length === REGISTRATION_CODE_LENGTH) void verify(value);
          }}
          isInvalid={error !== null}
          disabled={isVerifying}
          autoFocus
        />
        <p className={styles.codeError} role="alert">
          {error}
        </p>
      </div>
      <Button
        variant="secondary"
        isFullWidth
        onClick={() => (resendCode ? void mailedCode.send() : onResendFromForm())}
        disabled={secondsLeft > 0 || mailedCode.isSending}
      >
        {secondsLeft > 0
          ? `Отправить повторно через ${formatCountdown(secondsLeft)}`
          : 'Отправить код повторно'}
      </Button>
      <p className={styles.note}>Письмо не пришло? Проверьте папку «Спам».</p>
    </div>
  );
}
