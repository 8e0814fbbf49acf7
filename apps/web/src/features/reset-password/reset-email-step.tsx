import { zodResolver } from '@hookform/resolvers/zod';
import { type ResetEmailForm, resetEmailFormSchema } from '@portal/contracts/security';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { toApiFailure } from '@/shared/api/api-failure';
import { clearingField } from '@/shared/lib/clearing-field';
import { showFailure } from '@/shared/lib/show-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import heading from '@/shared/ui/form-heading.module.css';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import { TextField } from '@/shared/ui/text-field';
import { postForgotPassword } from './api/forgot-password';
import styles from './reset-password.module.css';

type ResetEmailStepProps = {
  defaultEmail: string;
  /** A letter to this address went out inside its resend countdown: the server would send none. */
  isCodeOnItsWay: (email: string) => boolean;
  onCodeOnItsWay: () => void;
  onCodeSent: (email: string) => void;
};

/** Step 1: the address whose password was forgotten. */
export function ResetEmailStep({
  defaultEmail,
  isCodeOnItsWay,
  onCodeOnItsWay,
  onCodeSent,
}: ResetEmailStepProps) {
  const form = useForm<ResetEmailForm>({
    resolver: zodResolver(resetEmailFormSchema),
    defaultValues: { email: defaultEmail },
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = handleSubmit(async ({ email }) => {
    if (isCodeOnItsWay(email)) {
      onCodeOnItsWay();
      return;
    }
    try {
      await postForgotPassword(email);
      onCodeSent(email);
    } catch (error) {
      // A refused address is said under the field; anything else (no answer, the server down, a
      // pause) is a toast, not swallowed as the spec had it: a press always gets an answer.
      showFailure(toApiFailure(error), ['email'] as const, setError);
    }
  });

  return (
    <div className={blocks.stack}>
      <header className={`${heading.heading} ${styles.header}`}>
        <h1 className={heading.title}>Обновление пароля</h1>
        <p className={heading.lead}>Укажите почту, пароль к которой вы забыли</p>
      </header>
      <form className={blocks.stack} onSubmit={onSubmit} noValidate>
        <TextField
          {...clearingField(form, 'email')}
          type="email"
          label="Почта"
          placeholder="Ваш email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
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
