import { zodResolver } from '@hookform/resolvers/zod';
import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { CODE_WRONG, EMAIL_UPDATED } from '@portal/contracts/messages';
import {
  type EmailChangeNewEmailForm,
  emailChangeCodeFormSchema,
  emailChangeNewEmailFormSchema,
} from '@portal/contracts/profile';
import axios from 'axios';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { userMerged } from '@/features/auth/user-slice';
import { errorText } from '@/shared/api/error-text';
import { Button } from '@/shared/ui/button';
import { CodeInput } from '@/shared/ui/code-input';
import { CheckIcon } from '@/shared/ui/icons';
import { Modal } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import {
  confirmNewEmail,
  requestCurrentEmailCode,
  submitNewEmail,
  verifyCurrentEmail,
} from './api/email-change';
import styles from './profile-page.module.css';

type Step = 'start' | 'current-code' | 'new-email' | 'new-code' | 'done';

const TITLES: Record<Step, string> = {
  start: 'Смена почты',
  'current-code': 'Код с текущей почты',
  'new-email': 'Новая почта',
  'new-code': 'Код с новой почты',
  done: 'Смена почты',
};

function answerOf(error: unknown) {
  if (!axios.isAxiosError(error)) return undefined;
  return error.response?.data as
    | { message?: string; errors?: Record<string, string[]> }
    | undefined;
}

/** The server's field message, else its message, else the generic text of spec §8. */
function failureText(error: unknown, field: string): string {
  const data = answerOf(error);
  return data?.errors?.[field]?.[0] ?? data?.message ?? errorText(error);
}

/**
 * The e-mail change of spec §2, made real (DESIGN §3): a code to the current address, the new
 * address, a code to the new address, then 'Почта обновлена'. Codes are digits only (spec §5).
 */
export function EmailChangeModal({
  currentEmail,
  isOpen,
  onOpenChange,
}: {
  currentEmail: string;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
}) {
  const dispatch = useAppDispatch();
  const [step, setStep] = useState<Step>('start');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [newEmail, setNewEmail] = useState('');
  const [isBusy, setIsBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const emailForm = useForm<EmailChangeNewEmailForm>({
    resolver: zodResolver(emailChangeNewEmailFormSchema),
    defaultValues: { email: '' },
  });

  // The refused digits stay (red) but are selected, so the next digit typed starts a new code.
  useEffect(() => {
    const input = codeRef.current;
    if (!codeError || isBusy || !input) return;
    input.focus();
    input.setSelectionRange(0, input.value.length);
  }, [codeError, isBusy]);

  function close(open: boolean) {
    if (open) return onOpenChange(true);
    onOpenChange(false);
    // The next opening starts over.
    setStep('start');
    setCode('');
    setCodeError(null);
    emailForm.reset({ email: '' });
  }

  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setIsBusy(true);
    try {
      return await action();
    } finally {
      setIsBusy(false);
    }
  }

  async function sendCurrentCode() {
    try {
      const { message } = (await run(requestCurrentEmailCode)) ?? { message: '' };
      if (message) notify.success(message);
      setCode('');
      setCodeError(null);
      setStep('current-code');
    } catch (error) {
      notify.error(errorText(error));
    }
  }

  async function submitCode(value: string) {
    if (!emailChangeCodeFormSchema.safeParse({ code: value }).success) {
      setCodeError(CODE_WRONG);
      return;
    }
    try {
      if (step === 'current-code') {
        await run(() => verifyCurrentEmail(value));
        setStep('new-email');
      } else {
        const answer = await run(() => confirmNewEmail(value));
        if (answer) dispatch(userMerged({ email: answer.email }));
        setStep('done');
      }
      setCode('');
      setCodeError(null);
    } catch (error) {
      // A taken address is only named once its code was proved: back to the address, under it.
      const refusedEmail = answerOf(error)?.errors?.email?.[0];
      if (step === 'new-code' && refusedEmail) {
        setCode('');
        setStep('new-email');
        emailForm.setError('email', { message: refusedEmail });
        return;
      }
      setCodeError(failureText(error, 'code'));
    }
  }

  const sendNewEmail = emailForm.handleSubmit(async ({ email }) => {
    try {
      const answer = await run(() => submitNewEmail(email));
      if (answer) notify.success(answer.message);
      setNewEmail(email);
      setCode('');
      setCodeError(null);
      setStep('new-code');
    } catch (error) {
      emailForm.setError('email', { message: failureText(error, 'email') });
    }
  });

  async function resendNewCode() {
    try {
      const answer = await run(() => submitNewEmail(newEmail));
      if (answer) notify.success(answer.message);
    } catch (error) {
      notify.error(failureText(error, 'email'));
    }
  }

  const codeStep = step === 'current-code' || step === 'new-code';

  return (
    <Modal isOpen={isOpen} onOpenChange={close} title={TITLES[step]}>
      {step === 'start' ? (
        <div className={styles.form}>
          <p className={styles.lead}>
            Сначала подтвердим текущую почту <strong>{currentEmail}</strong>: отправим на неё код.
          </p>
          <Button disabled={isBusy} aria-busy={isBusy} onClick={() => void sendCurrentCode()}>
            Отправить код
          </Button>
        </div>
      ) : null}

      {codeStep ? (
        <form
          className={styles.form}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void submitCode(code);
          }}
        >
          <p className={styles.lead}>
            Введите код из письма, отправленного на{' '}
            <strong>{step === 'current-code' ? currentEmail : newEmail}</strong>
          </p>
          <CodeInput
            ref={codeRef}
            label="Код подтверждения"
            value={code}
            autoFocus
            length={ONE_TIME_CODE_LENGTH}
            isInvalid={codeError !== null}
            disabled={isBusy}
            onChange={(value) => {
              setCode(value);
              if (codeError) setCodeError(null);
              if (value.length === ONE_TIME_CODE_LENGTH) void submitCode(value);
            }}
          />
          {codeError ? (
            <p className={styles.codeError} role="alert">
              {codeError}
            </p>
          ) : null}
          <button
            type="button"
            className={styles.linkButton}
            disabled={isBusy}
            onClick={() => void (step === 'current-code' ? sendCurrentCode() : resendNewCode())}
          >
            Отправить код ещё раз
          </button>
        </form>
      ) : null}

      {step === 'new-email' ? (
        <form className={styles.form} noValidate onSubmit={sendNewEmail}>
          <TextField
            label="Новая почта"
            type="email"
            autoComplete="email"
            autoFocus
            error={emailForm.formState.errors.email?.message}
            {...emailForm.register('email')}
          />
          <Button type="submit" disabled={isBusy} aria-busy={isBusy}>
            Получить код
          </Button>
        </form>
      ) : null}

      {step === 'done' ? (
        <div className={styles.done}>
          <span className={styles.doneMark}>
            <CheckIcon width={28} height={28} />
          </span>
          <p className={styles.doneTitle}>{EMAIL_UPDATED}</p>
          <Button onClick={() => close(false)}>Готово</Button>
        </div>
      ) : null}
    </Modal>
  );
}
