import { zodResolver } from '@hookform/resolvers/zod';
import { type ResetEmailForm, resetEmailFormSchema } from '@portal/contracts/security';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/shared/ui/button';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import { TextField } from '@/shared/ui/text-field';
import { postForgotPassword } from './api/forgot-password';
import styles from './reset-password.module.css';
import { firstFieldMessage } from './server-field-errors';

type ResetEmailStepProps = {
  defaultEmail: string;
  onCodeSent: (email: string) => void;
};

/** Step 1 (spec §2): the address whose password was forgotten. */
export function ResetEmailStep({ defaultEmail, onCodeSent }: ResetEmailStepProps) {
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<ResetEmailForm>({
    resolver: zodResolver(resetEmailFormSchema),
    defaultValues: { email: defaultEmail },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await postForgotPassword(email);
      onCodeSent(email);
    } catch (error) {
      // Spec §8: the reset steps show only field messages; anything else is swallowed.
      const message = firstFieldMessage(error);
      if (message) setError('email', { message });
    }
  });

  return (
    <div className={styles.step}>
      <header className={styles.header}>
        <h1 className={styles.title}>Обновление пароля</h1>
        <p className={styles.lead}>Укажите почту, пароль к которой вы забыли</p>
      </header>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField
          {...register('email', { onChange: () => clearErrors('email') })}
          type="email"
          label="Почта"
          placeholder="Ваш email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          error={errors.email?.message}
        />
        <Button type="submit" isFullWidth disabled={isSubmitting} aria-busy={isSubmitting}>
          Продолжить
        </Button>
      </form>
      <Link to={paths.auth.getHref()} className={styles.back}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </Link>
    </div>
  );
}
