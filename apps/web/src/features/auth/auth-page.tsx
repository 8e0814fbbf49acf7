import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { BrandCard } from '@/shared/ui/brand-card';
import { PageLoader } from '@/shared/ui/page-loader';
import { Tabs } from '@/shared/ui/tabs';
import { postRegister } from './api/register';
import styles from './auth-forms.module.css';
import { codeScreenLeft, selectAuth, tabChosen } from './auth-slice';
import { LoginForm } from './login-form';
import { RedirectNotice } from './redirect-notice';
import { emptyRegisterDraft, type RegisterDraft, RegisterForm } from './register-form';
import { useSsoHandOff } from './use-sso-hand-off';
import { useYandexCodeExchange } from './use-yandex-code-exchange';

// The code screen (and its six-box input library) loads only after a registration: /auth's own
// JavaScript stays under issue 7's budget.
const RegistrationCodeStep = lazy(() =>
  import('./registration-code-step').then((module) => ({ default: module.RegistrationCodeStep })),
);

const TABS = [
  { value: 'login', label: 'Войти' },
  { value: 'register', label: 'Регистрация' },
] as const;

/** What the code screen needs beyond the address; kept out of the store (it holds a password). */
type PendingConfirmation = {
  resendCode: () => Promise<string>;
};

/**
 * /auth: the two tabs, the code screen, the `link` hand-off and the Yandex
 * ID return (`yandexCode`). A `token` param signs nobody in (docs/decisions/0009).
 */
export default function AuthPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const link = searchParams.get('link');
  const { isLogin, registeredEmail } = useAppSelector(selectAuth);
  const [confirmation, setConfirmation] = useState<PendingConfirmation | null>(null);
  const [registerDraft, setRegisterDraft] = useState<RegisterDraft>(emptyRegisterDraft);
  const handOff = useSsoHandOff(link);
  const isExchangingYandexCode = useYandexCodeExchange();

  // After signing in: home, unless a sibling site is waiting (the hand-off takes over).
  const goOn = () => {
    if (!link) void navigate(paths.home.getHref(), { replace: true });
  };

  if (handOff.phase === 'redirecting') return <RedirectNotice host={handOff.host} />;
  if (handOff.phase === 'requesting' || isExchangingYandexCode) return <PageLoader />;

  if (registeredEmail && confirmation) {
    return (
      <BrandCard>
        <Suspense fallback={<PageLoader />}>
          <RegistrationCodeStep
            email={registeredEmail}
            resendCode={confirmation.resendCode}
            onBack={() => dispatch(codeScreenLeft())}
            onConfirmed={goOn}
          />
        </Suspense>
      </BrandCard>
    );
  }

  return (
    <BrandCard>
      <header className={styles.header}>
        <h1 className={styles.title}>Вход в личный кабинет</h1>
        <p className={styles.lead}>
          {isLogin
            ? 'Войдите, чтобы управлять услугами и балансом'
            : 'Создайте аккаунт — это займёт минуту'}
        </p>
      </header>
      <Tabs
        label="Вход или регистрация"
        items={TABS}
        value={isLogin ? 'login' : 'register'}
        onChange={(tab) => dispatch(tabChosen(tab))}
      >
        {isLogin ? (
          <LoginForm
            onSignedIn={goOn}
            onConfirmationNeeded={(resendCode) => setConfirmation({ resendCode })}
          />
        ) : (
          <RegisterForm
            draft={registerDraft}
            onRegistered={(draft, request) => {
              setRegisterDraft(draft);
              setConfirmation({
                // Spec §7: the register call is also the resend.
                resendCode: async () => (await postRegister(request)).message,
              });
            }}
          />
        )}
      </Tabs>
    </BrandCard>
  );
}
