import { zodResolver } from '@hookform/resolvers/zod';
import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { CODE_WRONG } from '@portal/contracts/messages';
import {
  type EmailChangeNewEmailForm,
  emailChangeCodeFormSchema,
  emailChangeNewEmailFormSchema,
} from '@portal/contracts/profile';
import { useEffect, useReducer, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { fetchCurrentUser, userMerged } from '@/features/auth';
import { type ApiFailure, toApiFailure } from '@/shared/api/api-failure';
import { showFailure } from '@/shared/lib/show-failure';
import { Modal } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import {
  confirmNewEmail,
  requestCurrentEmailCode,
  submitNewEmail,
  verifyCurrentEmail,
} from './api/email-change';
import { EmailChangeCodeStep } from './email-change-code-step';
import { EmailChangeDoneStep } from './email-change-done-step';
import {
  callEnded,
  callStarted,
  closed,
  codeRefused,
  codeTyped,
  currentCodeSent,
  currentEmailVerified,
  type EmailChangeStep,
  emailChanged,
  emailChangeFlow,
  initialEmailChangeState,
  newCodeSent,
  newEmailRefused,
} from './email-change-flow';
import { EmailChangeNewEmailStep } from './email-change-new-email-step';
import { EmailChangeStartStep } from './email-change-start-step';

const TITLES: Record<EmailChangeStep, string> = {
  start: 'Смена почты',
  'current-code': 'Код с текущей почты',
  'new-email': 'Новая почта',
  'new-code': 'Код с новой почты',
  done: 'Смена почты',
};

/** The server's message for the field, else the generic toast text. */
function failureText(failure: ApiFailure, field: string): string {
  return failure.errors[field]?.[0] ?? failure.text;
}

/**
 * The e-mail change: a code to the current address, the new address, a code to the new address,
 * then 'Почта обновлена'. Codes are digits only.
 *
 * Closing the dialog gives up the call in flight: it is aborted and its answer ignored, so a
 * closed dialog never moves on a step nor toasts. A letter already sent stays sent (its code
 * simply expires). The last call changes the address: aborted, it may still have reached the
 * server, so the user is read again and the profile shows the address the server kept.
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
  const appDispatch = useAppDispatch();
  const [flow, dispatch] = useReducer(emailChangeFlow.reducer, initialEmailChangeState);
  const { step } = flow;
  const emailForm = useForm<EmailChangeNewEmailForm>({
    resolver: zodResolver(emailChangeNewEmailFormSchema),
    defaultValues: { email: '' },
  });

  // The calls of this opening; aborted on closing (and on leaving the page).
  const callsRef = useRef<AbortController | null>(null);
  const callsSignal = () => {
    callsRef.current ??= new AbortController();
    return callsRef.current.signal;
  };
  useEffect(() => () => callsRef.current?.abort(), []);

  function close(open: boolean) {
    if (open) return onOpenChange(true);
    onOpenChange(false);
    callsRef.current?.abort();
    callsRef.current = null;
    dispatch(closed());
    emailForm.reset({ email: '' });
  }

  /**
   * The call, with the step's buttons and boxes waiting until it ends: its answer, or null when
   * the dialog closed meanwhile (then a failure is not thrown either: nobody is there to see it).
   */
  async function run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<{ answer: T } | null> {
    const signal = callsSignal();
    dispatch(callStarted());
    try {
      const answer = await call(signal);
      return signal.aborted ? null : { answer };
    } catch (error) {
      if (signal.aborted) return null;
      throw error;
    } finally {
      if (!signal.aborted) dispatch(callEnded());
    }
  }

  async function sendCurrentCode() {
    try {
      const sent = await run(requestCurrentEmailCode);
      if (!sent) return;
      if (sent.answer.message) notify.success(sent.answer.message);
      dispatch(currentCodeSent());
    } catch (error) {
      notify.error(toApiFailure(error).text);
    }
  }

  async function submitCode(value: string) {
    if (!emailChangeCodeFormSchema.safeParse({ code: value }).success) {
      dispatch(codeRefused(CODE_WRONG));
      return;
    }
    try {
      if (step === 'current-code') {
        if (await run((signal) => verifyCurrentEmail(value, signal))) {
          dispatch(currentEmailVerified());
        }
      } else {
        const confirmed = await run((signal) => confirmNewEmail(value, signal));
        if (!confirmed) {
          void appDispatch(fetchCurrentUser());
          return;
        }
        appDispatch(userMerged({ email: confirmed.answer.email }));
        dispatch(emailChanged());
      }
    } catch (error) {
      const failure = toApiFailure(error);
      const refusedEmail = failure.errors.email?.[0];
      if (step === 'new-code' && refusedEmail) {
        dispatch(newEmailRefused());
        emailForm.setError('email', { message: refusedEmail });
        return;
      }
      // Shown once: under the code's boxes when the code was refused, else as a toast.
      showFailure(failure, ['code'], (_, { message }) => dispatch(codeRefused(message)));
    }
  }

  function typeCode(value: string) {
    dispatch(codeTyped(value));
    if (value.length === ONE_TIME_CODE_LENGTH) void submitCode(value);
  }

  const sendNewEmail = emailForm.handleSubmit(async ({ email }) => {
    try {
      const sent = await run((signal) => submitNewEmail(email, signal));
      if (!sent) return;
      notify.success(sent.answer.message);
      dispatch(newCodeSent(email));
    } catch (error) {
      showFailure(toApiFailure(error), ['email'], emailForm.setError);
    }
  });

  async function resendNewCode() {
    try {
      const sent = await run((signal) => submitNewEmail(flow.newEmail, signal));
      if (sent) notify.success(sent.answer.message);
    } catch (error) {
      // The address is not on this step: its refusal is a toast.
      notify.error(failureText(toApiFailure(error), 'email'));
    }
  }

  return (
    <Modal isOpen={isOpen} onOpenChange={close} title={TITLES[step]}>
      {step === 'start' ? (
        <EmailChangeStartStep
          currentEmail={currentEmail}
          isBusy={flow.isBusy}
          onSendCode={() => void sendCurrentCode()}
        />
      ) : null}

      {step === 'current-code' || step === 'new-code' ? (
        <EmailChangeCodeStep
          email={step === 'current-code' ? currentEmail : flow.newEmail}
          code={flow.code}
          codeError={flow.codeError}
          isBusy={flow.isBusy}
          onCodeChange={typeCode}
          onSubmit={() => void submitCode(flow.code)}
          onResend={() => void (step === 'current-code' ? sendCurrentCode() : resendNewCode())}
        />
      ) : null}

      {step === 'new-email' ? (
        <EmailChangeNewEmailStep form={emailForm} isBusy={flow.isBusy} onSubmit={sendNewEmail} />
      ) : null}

      {step === 'done' ? <EmailChangeDoneStep onDone={() => close(false)} /> : null}
    </Modal>
  );
}
