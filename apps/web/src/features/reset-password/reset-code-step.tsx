import { zodResolver } from '@hookform/resolvers/zod';
import { type ResetPasswordForm, resetPasswordFormSchema } from '@portal/contracts/security';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { recheckSession } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { clearingField } from '@/shared/lib/clearing-field';
import { showFailure } from '@/shared/lib/show-failure';
import { useMailedCode } from '@/shared/lib/use-mailed-code';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import heading from '@/shared/ui/form-heading.module.css';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import { NewPasswordFields } from '@/shared/ui/new-password-fields';
import { ResendCodeButton } from '@/shared/ui/resend-code-button';
import { TextField } from '@/shared/ui/text-field';
import { postForgotPassword } from './api/forgot-password';
import { postResetPassword } from './api/reset-password';
import styles from './reset-password.module.css';

type ResetCodeStepProps = {
  email: string;
  /** When another letter may be asked for (epoch ms): the countdown runs until then. */
  resendAt: number;
  /** Reopened for a letter already sent: the lead says so instead of announcing a new one. */
  isReopened: boolean;
  onResent: () => void;
  onBack: () => void;
  onPasswordReset: () => void;
};

/**
 * Step 2: the mailed code, the new password twice, and 'sign out everywhere' (checked by
 * default), which the reset call itself carries, so the password and the sign-out succeed or
 * fail together. Each field shows its first message; editing a field clears its error. A refused
 * code shows the server's reason ('Неверный код', or that it expired or was mistyped too often
 * and a new one is needed), and a new one can be sent from here, after the same countdown as on
 * the registration screen. The reason never counts the tries left: for an address without an
 * account there are none to count, and a count would tell the two apart.
 */
export function ResetCodeStep({
  email,
  resendAt,
  isReopened,
  onResent,
  onBack,
  onPasswordReset,
}: ResetCodeStepProps) {
  const dispatch = useAppDispatch();
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { code: '', newPassword: '', repeatPassword: '', logoutAll: true },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    clearErrors,
    formState: { isSubmitting },
  } = form;

  // The first letter went out with step 1. Like every server error of these steps, a refused
  // resend is not shown; a limit only holds the button longer.
  const mailedCode = useMailedCode(() => postForgotPassword(email), {
    isFirstSent: true,
    firstWaitSeconds: Math.max(0, Math.ceil((resendAt - Date.now()) / 1000)),
    isQuiet: true,
    onSent: () => {
      setValue('code', '');
      clearErrors('code');
      onResent();
    },
  });

  const onSubmit = handleSubmit(async ({ code, newPassword, logoutAll }) => {
    try {
      await postResetPassword({
        email,
        newPassword,
        code: code.trim(),
        logoutEverywhere: logoutAll,
      });
    } catch (error) {
      // A refused code keeps the user on this step with the server's reason under the code; a
      // refused password shows the rule it broke. Anything else (no answer, the server down, a
      // pause) is a toast: the spec swallowed it, which left a press with no answer at all.
      showFailure(toApiFailure(error), ['code', 'newPassword'] as const, setError);
      return;
    }
    // Signed out everywhere: if this browser's session was one of them, every tab learns it now.
    if (logoutAll) dispatch(recheckSession());
    onPasswordReset();
  });

  return (
    <div className={blocks.stack}>
      <header className={`${heading.heading} ${styles.header}`}>
        <h1 className={heading.title}>Обновление пароля</h1>
        <p className={heading.lead}>
          {isReopened ? 'Код уже отправлен на' : 'Код отправлен на'} <strong>{email}</strong>
        </p>
      </header>
      <form className={blocks.stack} onSubmit={onSubmit} noValidate>
        <TextField
          {...clearingField(form, 'code')}
          label="Введите код"
          placeholder="000000"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
        />
        <NewPasswordFields form={form} />
        <Checkbox {...register('logoutAll')}>Выйти из всех активных сеансов входа</Checkbox>
        <Button type="submit" isFullWidth disabled={isSubmitting} aria-busy={isSubmitting}>
          Обновить пароль
        </Button>
      </form>
      <ResendCodeButton code={mailedCode} />
      <button type="button" className={styles.back} onClick={onBack}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </button>
    </div>
  );
}
