import { SESSION_ENDED } from '@portal/contracts/messages';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { BrandCard } from '@/shared/ui/brand-card';
import heading from '@/shared/ui/form-heading.module.css';
import { lazyPart } from '@/shared/ui/lazy-part';
import { PageLoader } from '@/shared/ui/page-loader';
import { Tabs } from '@/shared/ui/tabs';
import { notify } from '@/shared/ui/toast';
import { postRegister } from './api/register';
import styles from './auth-forms.module.css';
import { selectAuth, tabChosen } from './auth-slice';
import { leaveCodeStep, openCodeStep } from './code-step-actions';
import { LoginForm } from './login-form';
import { pendingConfirmationOf } from './pending-confirmation';
import { RedirectNotice } from './redirect-notice';
import { emptyRegisterDraft, type RegisterDraft } from './register-draft';
import { useSiteSignIn } from './use-site-sign-in';
import { useSsoHandOff } from './use-sso-hand-off';
import { useYandexCodeExchange } from './use-yandex-code-exchange';

// What the first paint of the Войти tab does not show loads when it is needed: the Регистрация
// tab when it is chosen, the code screen (and its six-box input library) after a registration,
// the second factor of a Yandex ID sign-in on its return. /auth's first visit stays within its
// budget (apps/web/e2e/budgets-auth-bundle.e2e.ts). Without a connection each says so in the card,
// with «Повторить».
const RegisterForm = lazyPart(() => import('./register-form'));
const RegistrationCodeStep = lazyPart(() =>
  import('./registration-code-step').then((module) => ({ default: module.RegistrationCodeStep })),
);
const YandexTwoFactorStep = lazyPart(() =>
  import('./yandex-two-factor-step').then((module) => ({ default: module.YandexTwoFactorStep })),
);

const TABS = [
  { value: 'login', label: 'Войти' },
  { value: 'register', label: 'Регистрация' },
] as const;

/** Our text: after a reload a new code is asked for by sending the form again. */
const SEND_FORM_AGAIN = 'Отправьте форму ещё раз — придёт новый код';

/**
 * How the code screen asks for a new code: the register or login request again, which holds the
 * password, so it stays out of the store and of storage. Kept outside the page, so that leaving
 * /auth and coming back (Back, Forward) keeps it; a reload forgets it.
 */
let resendOfPending: (() => Promise<string>) | null = null;

/**
 * /auth: the two tabs, the code screen, the `link` hand-off, a brand site's OpenID sign-in
 * (`interaction`) and the Yandex ID return (`yandexCode`). A `token` param signs nobody in (docs/decisions/0009).
 */
export default function AuthPage() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const link = searchParams.get('link');
  const interaction = searchParams.get('interaction');
  const { isLogin, confirmation, isSessionEnded } = useAppSelector(selectAuth);
  const [registerDraft, setRegisterDraft] = useState<RegisterDraft>(emptyRegisterDraft);
  const handOff = useSsoHandOff(link);
  const siteSignIn = useSiteSignIn(interaction);
  const yandexExchange = useYandexCodeExchange();

  // After signing in: home, unless a sibling site is waiting (the hand-off or the site's
  // OpenID sign-in takes over).
  const goOn = () => {
    if (!link && !interaction) void navigate(paths.home.getHref(), { replace: true });
  };

  if (handOff.phase === 'redirecting') return <RedirectNotice host={handOff.host} />;
  if (
    handOff.phase === 'requesting' ||
    siteSignIn.phase === 'finishing' ||
    yandexExchange.phase === 'exchanging'
  ) {
    return <PageLoader />;
  }
  if (yandexExchange.phase === 'second-factor') {
    return (
      <BrandCard>
        <YandexTwoFactorStep exchange={yandexExchange} />
      </BrandCard>
    );
  }

  // A code on its way: its screen, also after Back or a reload (until the code dies).
  if (confirmation) {
    const leave = () => {
      resendOfPending = null;
      dispatch(leaveCodeStep());
    };
    return (
      <BrandCard>
        <RegistrationCodeStep
          confirmation={confirmation}
          resendCode={resendOfPending}
          onBack={leave}
          onResendFromForm={() => {
            leave();
            dispatch(tabChosen(confirmation.form));
            notify.info(SEND_FORM_AGAIN);
          }}
          onConfirmed={() => {
            resendOfPending = null;
            goOn();
          }}
        />
      </BrandCard>
    );
  }

  return (
    <BrandCard>
      <header className={`${heading.heading} ${styles.header}`}>
        <h1 className={heading.title}>
          {isLogin ? 'Вход в личный кабинет' : 'Регистрация в личном кабинете'}
        </h1>
        <p className={heading.lead}>
          {isLogin
            ? 'Войдите, чтобы управлять услугами и балансом'
            : 'Создайте аккаунт — это займёт минуту'}
        </p>
        {isSessionEnded && (
          <p className={styles.sessionEnded} role="status">
            {SESSION_ENDED}
          </p>
        )}
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
            onConfirmationNeeded={(pending, resendCode) => {
              resendOfPending = resendCode;
              dispatch(
                openCodeStep(
                  pendingConfirmationOf(pending.email, 'login', pending.resendAfterSeconds, {
                    isNewCode: false,
                  }),
                ),
              );
            }}
          />
        ) : (
          <RegisterForm
            draft={registerDraft}
            onCodeOnItsWay={(draft, request, { resendAfterSeconds, isNewCode }) => {
              setRegisterDraft(draft);
              // The register call is also the resend.
              resendOfPending = async () => (await postRegister(request)).message;
              dispatch(
                openCodeStep(
                  pendingConfirmationOf(request.email, 'register', resendAfterSeconds, {
                    isNewCode,
                  }),
                ),
              );
            }}
          />
        )}
      </Tabs>
    </BrandCard>
  );
}
