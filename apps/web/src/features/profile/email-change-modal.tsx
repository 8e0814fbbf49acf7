import { zodResolver } from '@hookform/resolvers/zod';
import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { CODE_WRONG } from '@portal/contracts/messages';
import {
  type EmailChangeNewEmailForm,
  emailChangeCodeFormSchema,
  emailChangeNewEmailFormSchema,
} from '@portal/contracts/profile';
import { useReducer } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { userMerged } from '@/features/auth';
import { type ApiFailure, toApiFailure } from '@/shared/api/api-failure';
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

  function close(open: boolean) {
    if (open) return onOpenChange(true);
    onOpenChange(false);
    dispatch(closed());
    emailForm.reset({ email: '' });
  }

  /** The call, with the step's buttons and boxes waiting until it ends. */
  async function run<T>(call: () => Promise<T>): Promise<T> {
    dispatch(callStarted());
    try {
      return await call();
    } finally {
      dispatch(callEnded());
    }
  }

  async function sendCurrentCode() {
    try {
      const { message } = await run(requestCurrentEmailCode);
      if (message) notify.success(message);
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
        await run(() => verifyCurrentEmail(value));
        dispatch(currentEmailVerified());
      } else {
        const answer = await run(() => confirmNewEmail(value));
        appDispatch(userMerged({ email: answer.email }));
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
      dispatch(codeRefused(failureText(failure, 'code')));
    }
  }

  function typeCode(value: string) {
    dispatch(codeTyped(value));
    if (value.length === ONE_TIME_CODE_LENGTH) void submitCode(value);
  }

  const sendNewEmail = emailForm.handleSubmit(async ({ email }) => {
    try {
      const answer = await run(() => submitNewEmail(email));
      notify.success(answer.message);
      dispatch(newCodeSent(email));
    } catch (error) {
      emailForm.setError('email', { message: failureText(toApiFailure(error), 'email') });
    }
  });

  async function resendNewCode() {
    try {
      const answer = await run(() => submitNewEmail(flow.newEmail));
      notify.success(answer.message);
    } catch (error) {
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
