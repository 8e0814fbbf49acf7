import { zodResolver } from '@hookform/resolvers/zod';
import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { type PasswordChangeForm, passwordChangeFormSchema } from '@portal/contracts/security';
import type { UnknownAction } from '@reduxjs/toolkit';
import { useForm } from 'react-hook-form';
import { useAppSelector } from '@/app/hooks';
import { toApiFailure } from '@/shared/api/api-failure';
import { showFailure } from '@/shared/lib/show-failure';
import { useMailedCode } from '@/shared/lib/use-mailed-code';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import { postPasswordChange } from './api/change-password';
import { postPasswordChangeCodeCheck } from './api/check-password-change-code';
import { postPasswordChangeCode } from './api/request-password-change-code';
import { PasswordChangeCodeStep } from './password-change-code-step';
import {
  backToCode,
  closed,
  codeAccepted,
  codeAsked,
  codeRefused,
  codeTyped,
  logoutOtherSessionsChosen,
  type PasswordChangeState,
  type PasswordChangeStep,
  saveRefused,
  saveStarted,
} from './password-change-flow';
import { PasswordChangeFormStep } from './password-change-form-step';
import styles from './security.module.css';
import { selectIsTwoFactorConnected } from './two-factor-slice';

const TITLES: Record<Exclude<PasswordChangeStep, 'closed'>, string> = {
  confirm: 'Вы уверены, что хотите сменить пароль?',
  code: 'Подтверждение',
  form: 'Смена пароля',
  saving: 'Смена пароля',
};

type PasswordChangeDialogProps = {
  isOpen: boolean;
  /** The flow lives in the entry (./password-change-entry.tsx), which opens the dialog. */
  flow: PasswordChangeState;
  dispatch: (action: UnknownAction) => void;
};

/**
 * The password change's dialog, loaded when it first opens: 'Вы уверены…?' (Да/Нет) → a
 * code (mailed and checked as typed, or the authenticator's when it is on) → the form → 'Подождите пару секунд' while
 * saving → the server's message as a toast.
 */
export function PasswordChangeDialog({ isOpen, flow, dispatch }: PasswordChangeDialogProps) {
  const isTwoFactorConnected = useAppSelector(selectIsTwoFactorConnected);
  const mailedCode = useMailedCode(postPasswordChangeCode);
  const form = useForm<PasswordChangeForm>({
    resolver: zodResolver(passwordChangeFormSchema),
    defaultValues: { oldPassword: '', newPassword: '', repeatPassword: '' },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  function close() {
    dispatch(closed());
    form.reset();
  }

  async function askForCode() {
    if (isTwoFactorConnected) {
      dispatch(codeAsked({ usesAuthenticator: true }));
    } else if (await mailedCode.send()) {
      dispatch(codeAsked({ usesAuthenticator: false }));
    } else {
      dispatch(closed());
    }
  }

  function typeCode(value: string) {
    dispatch(codeTyped(value));
    if (!flow.usesAuthenticator && value.length === ONE_TIME_CODE_LENGTH) void checkCode(value);
  }

  // The mailed code is checked where it is typed (not used up), so a wrong one never opens the
  // form; the refusal says how many tries are left.
  async function checkCode(code: string) {
    try {
      await postPasswordChangeCodeCheck({ code });
      dispatch(codeAccepted());
    } catch (error) {
      // Shown once: under the boxes when the code was refused, else as a toast.
      showFailure(toApiFailure(error), ['code'], (_, { message }) =>
        dispatch(codeRefused(message)),
      );
    }
  }

  const save = form.handleSubmit(async ({ oldPassword, newPassword }) => {
    dispatch(saveStarted());
    try {
      const answer = await postPasswordChange({
        oldPassword,
        newPassword,
        code: flow.code,
        logoutOtherSessions: flow.logoutOtherSessions,
      });
      if (answer.status === 'ok') {
        notify.success(answer.message);
        close();
      } else {
        notify.error(answer.message);
        dispatch(saveRefused({}));
      }
    } catch (error) {
      const failure = toApiFailure(error);
      // Shown once: a refused code back on the code step, under its box; a refused password
      // under its field; anything else (no answer included) as a toast, the form as it was.
      const codeError = failure.errors.code?.[0];
      if (codeError) {
        dispatch(saveRefused({ codeError }));
        return;
      }
      dispatch(saveRefused({}));
      showFailure(failure, ['oldPassword', 'newPassword'], form.setError);
    }
  });

  const { step } = flow;
  return (
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
              onClick={() => void askForCode()}
              disabled={mailedCode.isSending}
              aria-busy={mailedCode.isSending}
            >
              Да
            </Button>
          </>
        ) : step === 'form' ? (
          <>
            <Button variant="secondary" onClick={() => dispatch(backToCode())}>
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
        <PasswordChangeCodeStep
          usesAuthenticator={flow.usesAuthenticator}
          code={flow.code}
          codeError={flow.codeError}
          onCodeChange={typeCode}
          mailedCode={mailedCode}
        />
      )}
      {step === 'form' && (
        <PasswordChangeFormStep
          id="password-change-form"
          form={form}
          onSubmit={save}
          logoutOtherSessions={flow.logoutOtherSessions}
          onLogoutOtherSessionsChange={(value) => dispatch(logoutOtherSessionsChosen(value))}
        />
      )}
      {step === 'saving' && (
        <div className={styles.saving} role="status">
          <span className={blocks.spinner} aria-hidden="true" />
          Подождите пару секунд
        </div>
      )}
    </Modal>
  );
}
