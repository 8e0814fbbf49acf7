import {
  REGISTRATION_CODE_LENGTH,
  RESEND_COUNTDOWN_FIRST_SECONDS,
  RESEND_COUNTDOWN_NEXT_SECONDS,
} from '@portal/contracts/constants';
import { CODE_WRONG } from '@portal/contracts/messages';
import { useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { formatCountdown, useCountdown } from '@/shared/lib/use-countdown';
import { Button } from '@/shared/ui/button';
import { CodeInput } from '@/shared/ui/code-input';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import { notify } from '@/shared/ui/toast';
import { type ApiFailure, toApiFailure } from './api/api-failure';
import styles from './auth-forms.module.css';
import { selectAuth } from './auth-slice';
import { verifyRegistration } from './auth-thunks';

type RegistrationCodeStepProps = {
  email: string;
  /** Asks the server for a new code; answers the server's message. */
  resendCode: () => Promise<string>;
  onBack: () => void;
  onConfirmed: () => void;
};

/** What the boxes say about a refused code: the server's words, else 'Неверный код'. */
function codeErrorText(failure: ApiFailure): string {
  if (failure.status === null) return failure.text;
  return failure.errors.code?.[0] ?? failure.message ?? CODE_WRONG;
}

/**
 * The code screen after registration (spec §2, §4): six boxes that submit themselves when full,
 * red boxes and the reason on a refusal, Back, and a resend button held by the 60 s / 30 s
 * countdown (the server's `Retry-After` wins when it knows better).
 */
export function RegistrationCodeStep({
  email,
  resendCode,
  onBack,
  onConfirmed,
}: RegistrationCodeStepProps) {
  const dispatch = useAppDispatch();
  const { registerStatus } = useAppSelector(selectAuth);
  const isVerifying = registerStatus === 'loading';
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isResending, setIsResending] = useState(false);
  const { secondsLeft, start } = useCountdown(RESEND_COUNTDOWN_FIRST_SECONDS);
  const inputRef = useRef<HTMLInputElement>(null);

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

  async function resend() {
    setIsResending(true);
    try {
      notify.success(await resendCode());
      start(RESEND_COUNTDOWN_NEXT_SECONDS);
      setCode('');
      setError(null);
      inputRef.current?.focus();
    } catch (caught) {
      const failure = toApiFailure(caught);
      if (failure.retryAfterSeconds) start(failure.retryAfterSeconds);
      notify.error(failure.text);
    } finally {
      setIsResending(false);
    }
  }

  return (
    <div className={styles.codeStep}>
      <button type="button" className={styles.back} onClick={onBack}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </button>
      <h1 className={styles.title}>Подтверждение почты</h1>
      <p className={styles.lead}>
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
        onClick={() => void resend()}
        disabled={secondsLeft > 0 || isResending}
      >
        {secondsLeft > 0
          ? `Отправить повторно через ${formatCountdown(secondsLeft)}`
          : 'Отправить код повторно'}
      </Button>
      <p className={styles.note}>Письмо не пришло? Проверьте папку «Спам».</p>
    </div>
  );
}
