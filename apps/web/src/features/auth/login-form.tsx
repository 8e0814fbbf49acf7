import { zodResolver } from '@hookform/resolvers/zod';
import {
  type LoginRequest,
  loginFormSchema,
  type loginRequestSchema,
  loginTwoFactorFormSchema,
} from '@portal/contracts/auth';
import { LOGIN_SUCCESS } from '@portal/contracts/messages';
import { useMemo, useRef } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import styles from './auth-forms.module.css';
import { selectAuth } from './auth-slice';
import { loginUser } from './auth-thunks';
import { TwoFactorCodeField } from './two-factor-code-field';

type LoginValues = z.input<typeof loginRequestSchema>;

/** Our text: the spec fixes the toast's 6 s, not its words. */
export const TWO_FACTOR_INFO = 'Введите код двухфакторной аутентификации';

const plainResolver = zodResolver(loginFormSchema) as unknown as Resolver<LoginValues>;
const twoFactorResolver = zodResolver(loginTwoFactorFormSchema) as unknown as Resolver<LoginValues>;

/** The Войти tab (spec §5 "Login"): login and password, then the code when the server asks. */
export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const dispatch = useAppDispatch();
  const { requiresTwoFactor, loginStatus } = useAppSelector(selectAuth);
  const isLoading = loginStatus === 'loading';

  // The code field joins the form when the server asks for it: one form, two schemas.
  const requiresTwoFactorRef = useRef(requiresTwoFactor);
  requiresTwoFactorRef.current = requiresTwoFactor;
  const resolver = useMemo<Resolver<LoginValues>>(
    () => (values, context, options) =>
      (requiresTwoFactorRef.current ? twoFactorResolver : plainResolver)(values, context, options),
    [],
  );

  const {
    register,
    handleSubmit,
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
      notify.error(result.payload?.text ?? result.error.message ?? '');
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
          error={errors.twoFactorCode?.message}
        />
      )}
      <Checkbox {...register('rememberMe')}>Запомнить меня</Checkbox>
      <Button type="submit" isFullWidth disabled={isLoading} aria-busy={isLoading}>
        Войти
      </Button>
    </form>
  );
}
