import type { RegisterForm as RegisterFormValues, RegisterRequest } from '@portal/contracts/auth';
import {
  RESEND_COUNTDOWN_FIRST_SECONDS,
  RESEND_COUNTDOWN_NEXT_SECONDS,
} from '@portal/contracts/constants';
import { withoutSpaces } from '@portal/contracts/without-spaces';
import { type Path, useForm, useWatch } from 'react-hook-form';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { runtimeConfig } from '@/config/runtime-config';
import { lazyResolver, notifyIfNotChecked } from '@/shared/lib/lazy-resolver';
import { loadOnce } from '@/shared/lib/load-once';
import { Button } from '@/shared/ui/button';
import { Checkbox } from '@/shared/ui/checkbox';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import styles from './auth-forms.module.css';
import { selectAuth } from './auth-slice';
import { registerUser } from './auth-thunks';
import type { RegisterDraft } from './register-draft';
import { registrationErrorTexts } from './registration-error-texts';

const loadSchemas = loadOnce(() => import('@portal/contracts/auth'));
const registerResolver = lazyResolver<RegisterDraft, unknown, RegisterFormValues>(
  async () => (await loadSchemas()).registerFormSchema,
);

// Server field names (of the register call) → the form's fields, for 400 answers.
const formFieldOf: Record<string, Path<RegisterDraft>> = {
  email: 'email',
  username: 'username',
  password: 'password',
  firstName: 'name',
  lastName: 'name',
};

type RegisterFormProps = {
  /** Values to start from: the form as it was when the user went on to the code screen. */
  draft: RegisterDraft;
  /**
   * A code went to the address, or one sent a moment ago still is on its way (the resend
   * countdown refused a new one): the page shows the code screen.
   */
  onCodeOnItsWay: (
    draft: RegisterDraft,
    request: RegisterRequest,
    code: { resendAfterSeconds: number; isNewCode: boolean },
  ) => void;
};

/** The Регистрация tab, validated on change. */
export default function RegisterForm({ draft, onCodeOnItsWay }: RegisterFormProps) {
  const dispatch = useAppDispatch();
  const { registerStatus } = useAppSelector(selectAuth);
  const isLoading = registerStatus === 'loading';

  const {
    register,
    control,
    handleSubmit,
    setError,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<RegisterDraft, unknown, RegisterFormValues>({
    mode: 'onChange',
    resolver: registerResolver,
    defaultValues: draft,
  });
  const hasConsent = useWatch({ control, name: 'consent' });

  const username = register('username');
  const password = register('password', {
    // A changed password re-checks the repeat, but only once the repeat was typed in.
    onChange: () => {
      if (getFieldState('confirmPassword').isDirty) void trigger('confirmPassword');
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    // Loaded by the check that let this submit through: no load left to fail.
    const { registerFormToRequest } = await loadSchemas();
    const request = registerFormToRequest(values);
    const result = await dispatch(registerUser(request));
    if (registerUser.rejected.match(result)) {
      const failure = result.payload;
      if (!failure) return;
      if (failure.reason === 'code_pending') {
        notify.info(failure.text);
        onCodeOnItsWay({ ...values, consent: true }, request, {
          resendAfterSeconds: failure.retryAfterSeconds ?? RESEND_COUNTDOWN_NEXT_SECONDS,
          isNewCode: false,
        });
        return;
      }
      // Shown once, as shared/lib/show-failure.ts does it for the signed-in forms (written out
      // here: that module is not loaded on /auth, whose bytes are counted): under each field the
      // answer names, else as toasts.
      let isUnderField = false;
      for (const [field, messages] of Object.entries(failure.errors)) {
        const formField = formFieldOf[field];
        if (formField && messages[0]) {
          setError(formField, { message: messages[0] }, { shouldFocus: !isUnderField });
          isUnderField = true;
        }
      }
      if (!isUnderField) for (const text of registrationErrorTexts(failure)) notify.error(text);
      return;
    }
    notify.success(result.payload.message);
    onCodeOnItsWay({ ...values, consent: true }, request, {
      resendAfterSeconds: RESEND_COUNTDOWN_FIRST_SECONDS,
      isNewCode: true,
    });
  }, notifyIfNotChecked);

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <TextField
        {...register('email')}
        type="email"
        label="Почта"
        placeholder="you@example.com"
        autoComplete="email"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.email?.message}
      />
      <TextField
        {...register('name')}
        label="Имя и фамилия"
        placeholder="Иван Петров"
        autoComplete="name"
        error={errors.name?.message}
      />
      <TextField
        {...username}
        onChange={(event) => {
          // A username has no spaces: they are stripped as typed.
          const stripped = withoutSpaces(event.target.value);
          if (stripped !== event.target.value) event.target.value = stripped;
          return username.onChange(event);
        }}
        label="Никнейм"
        placeholder="player_one"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.username?.message}
      />
      <TextField
        {...password}
        type="password"
        label="Пароль"
        placeholder="Не меньше 8 символов"
        autoComplete="new-password"
        error={errors.password?.message}
        hint="8–32 символа: заглавная и строчная латинские буквы и цифра"
      />
      <TextField
        {...register('confirmPassword')}
        type="password"
        label="Повторите пароль"
        placeholder="Ещё раз пароль"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
      />
      <Checkbox
        {...register('consent')}
        error={errors.consent?.message}
        link={{
          href: runtimeConfig.privacyUrl,
          text: 'обработку персональных данных',
          after: 'и получение рекламной рассылки',
        }}
      >
        Я даю согласие на
      </Checkbox>
      <Button type="submit" isFullWidth disabled={!hasConsent || isLoading} aria-busy={isLoading}>
        Зарегистрироваться
      </Button>
    </form>
  );
}
