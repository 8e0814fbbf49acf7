import { zodResolver } from '@hookform/resolvers/zod';
import { RESET_CODE_REQUIRED } from '@portal/contracts/messages';
import { type ResetPasswordForm, resetPasswordFormSchema } from '@portal/contracts/security';
import { useForm } from 'react-hook-form';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import { NewPasswordFields } from '@/shared/ui/new-password-fields';
import { TextField } from '@/shared/ui/text-field';
import { postResetPassword } from './api/reset-password';
import styles from './reset-password.module.css';
import { serverFieldErrors } from './server-field-errors';

type ResetCodeStepProps = {
  email: string;
  onBack: () => void;
  onPasswordReset: () => void;
};

/**
 * Step 2: the mailed code, the new password twice, and 'sign out everywhere' (checked by
 * default), which the reset call itself carries, so the password and the sign-out succeed or
 * fail together. Each field shows its first message; editing a field clears its error.
 */
export function ResetCodeStep({ email, onBack, onPasswordReset }: ResetCodeStepProps) {
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { code: '', newPassword: '', repeatPassword: '', logoutAll: true },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  const clearing = (field: 'code' | 'newPassword' | 'repeatPassword') => ({
    onChange: () => clearErrors(field),
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
      // Server errors are not shown as toasts here. A refused code keeps the user on this step
      // with the code field's message; a refused password shows the rule it broke.
      const fields = serverFieldErrors(error);
      if (fields.code) setError('code', { message: RESET_CODE_REQUIRED });
      if (fields.newPassword?.[0]) setError('newPassword', { message: fields.newPassword[0] });
      return;
    }
    onPasswordReset();
  });

  return (
    <div className={styles.step}>
      <header className={styles.header}>
        <h1 className={styles.title}>Обновление пароля</h1>
        <p className={styles.lead}>
          Код отправлен на <strong>{email}</strong>
        </p>
      </header>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField
          {...register('code', clearing('code'))}
          label="Введите код"
          placeholder="000000"
          inputMode="numeric"
          autoComplete="one-time-code"
          autoFocus
          error={errors.code?.message}
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
        <Checkbox {...register('logoutAll')}>Выйти из всех активных сеансов входа</Checkbox>
        <Button type="submit" isFullWidth disabled={isSubmitting} aria-busy={isSubmitting}>
          Обновить пароль
        </Button>
      </form>
      <button type="button" className={styles.back} onClick={onBack}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </button>
    </div>
  );
}
