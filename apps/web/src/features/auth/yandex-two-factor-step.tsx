import { zodResolver } from '@hookform/resolvers/zod';
import { loginRecoveryFormSchema, loginTwoFactorFormSchema } from '@portal/contracts/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/shared/ui/button';
import { ArrowLeftIcon } from '@/shared/ui/icons';
import styles from './auth-forms.module.css';
import type { SecondFactorKind } from './auth-slice';
import { TwoFactorCodeField } from './two-factor-code-field';
import type { YandexCodeExchange } from './use-yandex-code-exchange';

// The login form's rules for each kind of second factor, without its login and password.
const schemaOf = {
  authenticator: loginTwoFactorFormSchema.pick({ twoFactorCode: true }),
  recovery: loginRecoveryFormSchema.pick({ twoFactorCode: true }),
};

type Values = { twoFactorCode: string };

/**
 * A Yandex ID sign-in of an account with the authenticator on: its code (or a recovery code) is
 * asked for here, as the login form asks it after the password.
 */
export function YandexTwoFactorStep({
  exchange,
}: {
  exchange: Pick<YandexCodeExchange, 'submitSecondFactor' | 'cancel'>;
}) {
  const [kind, setKind] = useState<SecondFactorKind>('authenticator');
  const {
    register,
    handleSubmit,
    setError,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    mode: 'onChange',
    resolver: zodResolver(schemaOf[kind]),
    defaultValues: { twoFactorCode: '' },
  });

  const onSubmit = handleSubmit(async ({ twoFactorCode }) => {
    const failure = await exchange.submitSecondFactor(twoFactorCode.trim());
    const message = failure?.errors.twoFactorCode?.[0];
    if (message) setError('twoFactorCode', { message }, { shouldFocus: true });
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <button type="button" className={styles.back} onClick={exchange.cancel}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </button>
      <header className={styles.header}>
        <h1 className={styles.title}>Вход через Яндекс ID</h1>
        <p className={styles.lead}>Введите код двухфакторной аутентификации</p>
      </header>
      <TwoFactorCodeField
        registration={register('twoFactorCode')}
        kind={kind}
        onKindChange={(next) => {
          setKind(next);
          resetField('twoFactorCode', { defaultValue: '' });
        }}
        error={errors.twoFactorCode?.message}
      />
      <Button type="submit" isFullWidth disabled={isSubmitting} aria-busy={isSubmitting}>
        Войти
      </Button>
    </form>
  );
}
