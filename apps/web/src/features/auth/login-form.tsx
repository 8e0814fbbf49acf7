import { zodResolver } from '@hookform/resolvers/zod';
import {
  type LoginRequest,
  loginFormSchema,
  loginRequestSchema,
  loginTwoFactorFormSchema,
} from '@portal/contracts/auth';
import { LOGIN_SUCCESS, UNKNOWN_ERROR } from '@portal/contracts/messages';
import { recoveryCodeSchema } from '@portal/contracts/security';
import { useMemo, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { toApiFailure } from './api/api-failure';
import { postLogin } from './api/login';
import styles from './auth-forms.module.css';
import { confirmationRequested, selectAuth } from './auth-slice';
import { loginUser } from './auth-thunks';
import { type SecondFactorKind, TwoFactorCodeField } from './two-factor-code-field';
import { YandexLoginButton } from './yandex-login-button';

type LoginValues = z.input<typeof loginRequestSchema>;

/** Our text: the spec fixes the toast's 6 s, not its words. */
const TWO_FACTOR_INFO = 'Введите код двухфакторной аутентификации';

const plainResolver = zodResolver(loginFormSchema) as unknown as Resolver<LoginValues>;
const twoFactorResolver = zodResolver(loginTwoFactorFormSchema) as unknown as Resolver<LoginValues>;
const recoveryResolver = zodResolver(
  loginRequestSchema.extend({ twoFactorCode: recoveryCodeSchema }),
) as unknown as Resolver<LoginValues>;

/** Logging in to an unconfirmed account mails a new code; its 403 is the success here. */
async function resendByLogin(body: LoginRequest): Promise<string> {
  try {
    await postLogin(body);
  } catch (error) {
    const failure = toApiFailure(error);
    if (failure.status === 403 && failure.message) return failure.message;
    throw error;
  }
  return '';
}

type LoginFormProps = {
  onSignedIn: () => void;
  /**
   * The account is not confirmed yet and the server mailed a fresh code (DESIGN §3): the page
   * shows the code screen. `resendCode` asks for another one the same way.
   */
  onConfirmationNeeded: (resendCode: () => Promise<string>) => void;
};

/** The Войти tab (spec §5 "Login"): login and password, then the code when the server asks. */
export function LoginForm({ onSignedIn, onConfirmationNeeded }: LoginFormProps) {
  const dispatch = useAppDispatch();
  const { requiresTwoFactor, loginStatus } = useAppSelector(selectAuth);
  const isLoading = loginStatus === 'loading';

  const [secondFactorKind, setSecondFactorKind] = useState<SecondFactorKind>('authenticator');

  // The code field joins the form when the server asks for it: one form, a schema per stage.
  const schemaRef = useRef<Resolver<LoginValues>>(plainResolver);
  schemaRef.current = !requiresTwoFactor
    ? plainResolver
    : secondFactorKind === 'recovery'
      ? recoveryResolver
      : twoFactorResolver;
  const resolver = useMemo<Resolver<LoginValues>>(
    () => (values, context, options) => schemaRef.current(values, context, options),
    [],
  );

  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors },
  } = useForm<LoginValues>({
    mode: 'onChange',
    resolver,
    defaultValues: { usernameOrEmail: '', password: '', rememberMe: false, twoFactorCode: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    const body: LoginRequest = {
      usernameOrEmail: values.usernameOrEmail.trim(),
      password: values.password,
      rememberMe: values.rememberMe ?? false,
      ...(requiresTwoFactor ? { twoFactorCode: values.twoFactorCode?.trim() } : {}),
    };
    const result = await dispatch(loginUser(body));
    if (loginUser.rejected.match(result)) {
      const failure = result.payload;
      notify.error(failure?.text ?? result.error.message ?? UNKNOWN_ERROR);
      // Only an address can be confirmed: verify-registration takes the e-mail.
      if (failure?.status === 403 && body.usernameOrEmail.includes('@')) {
        dispatch(confirmationRequested(body.usernameOrEmail));
        onConfirmationNeeded(() => resendByLogin(body));
      }
      return;
    }
    if ('requiresTwoFactor' in result.payload) {
      notify.info(TWO_FACTOR_INFO);
      return;
    }
    notify.success(LOGIN_SUCCESS);
    onSignedIn();
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <TextField
        {...register('usernameOrEmail')}
        label="Логин или почта"
        placeholder="Никнейм или email"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.usernameOrEmail?.message}
      />
      <TextField
        {...register('password')}
        type="password"
        label="Пароль"
        placeholder="Ваш пароль"
        autoComplete="current-password"
        error={errors.password?.message}
        labelAside={
          <Link to={paths.resetPassword.getHref()} className={styles.aside}>
            Забыли пароль?
          </Link>
        }
      />
      {requiresTwoFactor && (
        <TwoFactorCodeField
          registration={register('twoFactorCode')}
          kind={secondFactorKind}
          onKindChange={(kind) => {
            setSecondFactorKind(kind);
            resetField('twoFactorCode', { defaultValue: '' });
          }}
          error={errors.twoFactorCode?.message}
        />
      )}
      <Checkbox {...register('rememberMe')}>Запомнить меня</Checkbox>
      <Button type="submit" isFullWidth disabled={isLoading} aria-busy={isLoading}>
        Войти
      </Button>
      <YandexLoginButton />
    </form>
  );
}
