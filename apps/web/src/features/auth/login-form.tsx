import type { LoginRequest, loginRequestSchema, PendingConfirmation } from '@portal/contracts/auth';
import { LOGIN_PAUSED_RECOVERY, LOGIN_SUCCESS, UNKNOWN_ERROR } from '@portal/contracts/messages';
import { PASSKEY_MESSAGES } from '@portal/contracts/passkey-messages';
import type { PasskeyAssertion, PasskeyRequestOptions } from '@portal/contracts/passkeys';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { type ApiFailure, toApiFailure } from '@/shared/api/api-failure';
import { lazyResolver, notifyIfNotChecked } from '@/shared/lib/lazy-resolver';
import { loadOnce } from '@/shared/lib/load-once';
import {
  isAutofillAvailable,
  isPasskeyCancelled,
  isWebAuthnAvailable,
  signWithPasskey,
} from '@/shared/lib/webauthn';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { postLogin } from './api/login';
import { postPasskeySignInOptions } from './api/passkey-sign-in';
import styles from './auth-forms.module.css';
import { type LoginStep, secondFactorKindChosen, selectAuth, selectLoginStep } from './auth-slice';
import { loginUser, signInWithPasskey } from './auth-thunks';
import { TwoFactorCodeField } from './two-factor-code-field';
import { YandexLoginButton } from './yandex-login-button';

type LoginValues = z.input<typeof loginRequestSchema>;

/** Our text: only the toast's 6 s are fixed, not its words. */
const TWO_FACTOR_INFO = 'Введите код двухфакторной аутентификации';
/** Our text: the password was right, the browser's passkey dialog comes next. */
const PASSKEY_STEP_INFO = 'Подтвердите вход ключом доступа';

/**
 * Checks the form by the schema of the step it is at, which react-hook-form passes as context:
 * every step's schema reads the same form and gives a login request, so one form serves them all.
 */
const loadSchemas = loadOnce(() => import('@portal/contracts/auth'));
const loginResolver = lazyResolver<LoginValues, LoginStep, LoginRequest>(async (step) => {
  const schemas = await loadSchemas();
  const schemaOf: Record<LoginStep, z.ZodType<LoginRequest, LoginValues>> = {
    credentials: schemas.loginFormSchema,
    authenticator: schemas.loginTwoFactorFormSchema,
    recovery: schemas.loginRecoveryFormSchema,
  };
  return schemaOf[step ?? 'credentials'];
});

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

/**
 * The login waits after too many wrong attempts (429 `login_paused`; a login no account has waits
 * alike): the server's text, whose minutes come from Retry-After, or null for another refusal.
 */
function pausedText(failure: ApiFailure | undefined): string | null {
  return failure?.reason === 'login_paused' ? failure.message : null;
}

type LoginFormProps = {
  onSignedIn: () => void;
  /**
   * The account is not confirmed yet and a code is on its way to `pending.email` (whether the
   * login was the username or the address): the page shows the code screen. `resendCode` asks for
   * another one the same way.
   */
  onConfirmationNeeded: (pending: PendingConfirmation, resendCode: () => Promise<string>) => void;
};

/** The Войти tab: login and password, then the second factor when the server asks for it. */
export function LoginForm({ onSignedIn, onConfirmationNeeded }: LoginFormProps) {
  const dispatch = useAppDispatch();
  const { loginStatus } = useAppSelector(selectAuth);
  const step = useAppSelector(selectLoginStep);
  const isLoading = loginStatus === 'loading';

  const {
    register,
    handleSubmit,
    resetField,
    getValues,
    formState: { errors },
  } = useForm<LoginValues, LoginStep, LoginRequest>({
    // Checked on «Войти», then again as the person corrects a field (react-hook-form's default):
    // a check on every keystroke re-rendered the form per key, which a slow phone feels.
    mode: 'onSubmit',
    resolver: loginResolver,
    context: step,
    defaultValues: { usernameOrEmail: '', password: '', rememberMe: false, twoFactorCode: '' },
  });

  const [isPasskeyBusy, setIsPasskeyBusy] = useState(false);
  /** Shown in the form while the login waits, with the way to a new password. */
  const [paused, setPaused] = useState<string | null>(null);

  /** The passkey step of a password sign-in: the browser's dialog, then the login again. */
  async function passkeyStep(body: LoginRequest, options: PasskeyRequestOptions) {
    notify.info(PASSKEY_STEP_INFO);
    let passkey: PasskeyAssertion;
    try {
      passkey = await signWithPasskey(options);
    } catch (error) {
      if (!isPasskeyCancelled(error)) notify.error(PASSKEY_MESSAGES.signInFailed);
      return;
    }
    await finish(body, await dispatch(loginUser({ ...body, passkey })));
  }

  async function finish(body: LoginRequest, result: Awaited<ReturnType<typeof dispatchLogin>>) {
    setPaused(null);
    if (loginUser.rejected.match(result)) {
      const failure = result.payload;
      const pausedNotice = pausedText(failure);
      if (pausedNotice) {
        setPaused(pausedNotice);
        return;
      }
      notify.error(failure?.text ?? result.error.message ?? UNKNOWN_ERROR);
      if (failure?.confirmation) {
        onConfirmationNeeded(failure.confirmation, () => resendByLogin(body));
      }
      return;
    }
    if ('requiresTwoFactor' in result.payload) {
      if (result.payload.passkeyOptions) {
        await passkeyStep(body, result.payload.passkeyOptions);
        return;
      }
      notify.info(TWO_FACTOR_INFO);
      return;
    }
    notify.success(LOGIN_SUCCESS);
    onSignedIn();
  }
  const dispatchLogin = (body: LoginRequest) => dispatch(loginUser(body));

  const onSubmit = handleSubmit(async (values) => {
    const body: LoginRequest = {
      usernameOrEmail: values.usernameOrEmail.trim(),
      password: values.password,
      rememberMe: values.rememberMe ?? false,
      ...(step === 'credentials' ? {} : { twoFactorCode: values.twoFactorCode?.trim() }),
    };
    await finish(body, await dispatchLogin(body));
  }, notifyIfNotChecked);

  /**
   * A sign-in by a passkey alone: a fresh challenge, the browser's dialog (or, with
   * `useBrowserAutofill`, the login field's suggestions, which may wait long), then the session.
   * The autofill's request waits in the background and speaks only when it signed in.
   */
  async function passkeySignIn(useBrowserAutofill: boolean) {
    const complain = (text: string) => {
      if (!useBrowserAutofill) notify.error(text);
    };
    if (!useBrowserAutofill) setIsPasskeyBusy(true);
    try {
      let response: PasskeyAssertion;
      try {
        const options = await postPasskeySignInOptions();
        response = await signWithPasskey(options, useBrowserAutofill);
      } catch (error) {
        const failure = toApiFailure(error);
        if (failure.isRequestError) complain(failure.text);
        else if (!isPasskeyCancelled(error)) complain(PASSKEY_MESSAGES.signInFailed);
        return;
      }
      const rememberMe = getValues('rememberMe') ?? false;
      const result = await dispatch(signInWithPasskey({ response, rememberMe }));
      if (signInWithPasskey.rejected.match(result)) {
        complain(result.payload?.text ?? PASSKEY_MESSAGES.signInFailed);
        return;
      }
      notify.success(LOGIN_SUCCESS);
      onSignedIn();
    } finally {
      if (!useBrowserAutofill) setIsPasskeyBusy(false);
    }
  }

  // Where the browser offers passkeys in the login field's autofill, the field asks for one in the
  // background (conditional mediation) from its first focus: started with the page it would load
  // the WebAuthn library on every first visit of /auth, past its script budget
  // (docs/decisions/0028-passkeys.md). The button below starts the same sign-in in a dialog.
  const isAutofillStarted = useRef(false);
  function startAutofill() {
    if (isAutofillStarted.current) return;
    isAutofillStarted.current = true;
    void isAutofillAvailable().then(
      (isAvailable) => {
        if (isAvailable) void passkeySignIn(true);
      },
      // The library did not load (no connection): quietly, as the offer is; the next focus tries again.
      () => {
        isAutofillStarted.current = false;
      },
    );
  }

  return (
    // The check's code loads while the person types (a focus anywhere in the form), so «Войти»
    // answers at once.
    <form className={styles.form} onSubmit={onSubmit} onFocus={loginResolver.preload} noValidate>
      <TextField
        {...register('usernameOrEmail')}
        onFocus={startAutofill}
        label="Логин или почта"
        placeholder="Никнейм или email"
        autoComplete="username webauthn"
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
      {step !== 'credentials' && (
        <TwoFactorCodeField
          registration={register('twoFactorCode')}
          kind={step}
          onKindChange={(kind) => {
            dispatch(secondFactorKindChosen(kind));
            resetField('twoFactorCode', { defaultValue: '' });
          }}
          error={errors.twoFactorCode?.message}
        />
      )}
      {paused && (
        <p className={styles.codeError} role="alert">
          {paused} <Link to={paths.resetPassword.getHref()}>{LOGIN_PAUSED_RECOVERY}</Link>
        </p>
      )}
      <Checkbox {...register('rememberMe')}>Запомнить меня</Checkbox>
      <Button type="submit" isFullWidth disabled={isLoading} aria-busy={isLoading}>
        Войти
      </Button>
      {isWebAuthnAvailable() && (
        <Button
          type="button"
          variant="secondary"
          isFullWidth
          disabled={isPasskeyBusy}
          aria-busy={isPasskeyBusy}
          onClick={() => void passkeySignIn(false)}
        >
          Войти с ключом доступа
        </Button>
      )}
      <YandexLoginButton />
    </form>
  );
}
