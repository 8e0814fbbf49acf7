import { zodResolver } from '@hookform/resolvers/zod';
import { loginRecoveryFormSchema, loginTwoFactorFormSchema } from '@portal/contracts/auth';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/shared/ui/button';
import heading from '@/shared/ui/form-heading.module.css';
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

/** Our text: the account's passkey is the step, as after the password. */
const PASSKEY_STEP_LEAD = 'Для входа подтвердите его ключом доступа';

/**
 * A Yandex ID sign-in of an account with a second factor: the authenticator's code (or a
 * recovery code), or for an account with passkeys and no authenticator its passkey, asked for
 * here as the login form asks them after the password.
 */
export function YandexTwoFactorStep({
  exchange,
}: {
  exchange: Pick<
    YandexCodeExchange,
    'submitSecondFactor' | 'cancel' | 'passkeyOptions' | 'submitPasskey'
  >;
}) {
  if (exchange.passkeyOptions) return <YandexPasskeyStep exchange={exchange} />;
  return <YandexCodeStep exchange={exchange} />;
}

function YandexPasskeyStep({
  exchange,
}: {
  exchange: Pick<YandexCodeExchange, 'cancel' | 'submitPasskey'>;
}) {
  const [isBusy, setIsBusy] = useState(false);
  const signWithKey = async () => {
    setIsBusy(true);
    try {
      await exchange.submitPasskey();
    } finally {
      setIsBusy(false);
    }
  };
  return (
    <div className={styles.form}>
      <StepHeader lead={PASSKEY_STEP_LEAD} onBack={exchange.cancel} />
      <Button
        type="button"
        isFullWidth
        disabled={isBusy}
        aria-busy={isBusy}
        onClick={() => void signWithKey()}
      >
        Войти с ключом доступа
      </Button>
    </div>
  );
}

function YandexCodeStep({
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
      <StepHeader lead="Введите код двухфакторной аутентификации" onBack={exchange.cancel} />
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

/** «Назад» to the sign-in page and the step's heading, as both second steps show them. */
function StepHeader({ lead, onBack }: { lead: string; onBack: () => void }) {
  return (
    <>
      <button type="button" className={styles.back} onClick={onBack}>
        <ArrowLeftIcon width="18" height="18" />
        Назад
      </button>
      <header className={`${heading.heading} ${styles.header}`}>
        <h1 className={heading.title}>Вход через Яндекс ID</h1>
        <p className={heading.lead}>{lead}</p>
      </header>
    </>
  );
}
