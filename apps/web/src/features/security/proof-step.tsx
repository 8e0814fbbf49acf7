import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { OLD_PASSWORD_REQUIRED, TWO_FACTOR_CODE_LENGTH } from '@portal/contracts/messages';
import type { ProofMethod, ProofRequest } from '@portal/contracts/security';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { showFailure } from '@/shared/lib/show-failure';
import { useMailedCode } from '@/shared/lib/use-mailed-code';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { CodeInput } from '@/shared/ui/code-input';
import { LinkButton } from '@/shared/ui/link-button';
import modalStyles from '@/shared/ui/modal.module.css';
import { ResendCodeButton } from '@/shared/ui/resend-code-button';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { getProofStatus } from './api/get-proof-status';
import { postProof } from './api/prove-owner';
import { postProofCode } from './api/request-proof-code';
import styles from './security.module.css';

type ProofStepProps = {
  /** Repeats the refused action; a failure of it becomes a toast, and the step stays. */
  onProven: () => Promise<void>;
  onCancel: () => void;
};

/** The boxes of the step, as the server names them; the step shows one at a time. */
const PROOF_FIELDS = [
  'password',
  'code',
  'emailCode',
] as const satisfies readonly (keyof ProofRequest)[];

/** The way offered first: the authenticator when it is on, else the password, else a letter. */
function firstWay(methods: ProofMethod[]): ProofMethod {
  if (methods.includes('authenticator')) return 'authenticator';
  return methods.includes('password') ? 'password' : 'email';
}

/**
 * "Подтвердите, что это вы": the step a dialog shows when the server refuses a change of the
 * account's factors until the session proves its owner (`isProofRequired`). The current password,
 * the authenticator's code when it is on, or a code mailed to the account's address; then the
 * dialog's action is repeated. Embedded in the dialogs of the authenticator and of Telegram.
 */
export function ProofStep({ onProven, onCancel }: ProofStepProps) {
  const user = useAppSelector(selectUser);
  const formId = useId();
  const [methods, setMethods] = useState<ProofMethod[] | null>(null);
  const [way, setWay] = useState<ProofMethod | null>(null);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const mailedCode = useMailedCode(postProofCode);

  async function choose(next: ProofMethod) {
    setCode('');
    setError(null);
    if (next === 'email' && !(await mailedCode.send())) return;
    setWay(next);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: asked once, when the step appears.
  useEffect(() => {
    const controller = new AbortController();
    getProofStatus(controller.signal).then(
      (status) => {
        setMethods(status.methods);
        void choose(firstWay(status.methods));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        notify.error(toApiFailure(error).text);
        onCancel();
      },
    );
    return () => controller.abort();
  }, []);

  async function prove(answer: ProofRequest) {
    setIsBusy(true);
    try {
      await postProof(answer);
    } catch (error) {
      // Shown once: under the one box of the step when it was refused, else as a toast.
      showFailure(toApiFailure(error), PROOF_FIELDS, (_, { message }) => {
        setError(message);
        setCode('');
      });
      setIsBusy(false);
      return;
    }
    try {
      await onProven();
    } catch (error) {
      notify.error(toApiFailure(error).text);
    } finally {
      setIsBusy(false);
    }
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (isBusy) return;
    if (way === 'password') {
      if (!password) setError(OLD_PASSWORD_REQUIRED);
      else void prove({ password });
    } else if (code.length !== ONE_TIME_CODE_LENGTH) {
      setError(TWO_FACTOR_CODE_LENGTH);
    } else {
      void prove(way === 'email' ? { emailCode: code } : { code });
    }
  }

  if (!methods || !way) {
    return (
      <div className={styles.saving} role="status">
        <span className={blocks.spinner} aria-hidden="true" />
        Подождите пару секунд
      </div>
    );
  }

  const firstOffered = firstWay(methods);
  return (
    <form id={formId} className={blocks.stack} onSubmit={submit} noValidate>
      <p className={blocks.lead}>
        Чтобы продолжить, подтвердите, что это вы: {way === 'password' && 'введите текущий пароль.'}
        {way === 'authenticator' && 'введите код из приложения Google Authenticator.'}
        {way === 'email' && (
          <>
            введите код, который мы отправили на <strong>{user?.email}</strong>.
          </>
        )}
      </p>
      {way === 'password' ? (
        <TextField
          type="password"
          label="Текущий пароль"
          autoComplete="current-password"
          autoFocus
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            setError(null);
          }}
          error={error ?? undefined}
        />
      ) : (
        <div className={styles.codeField}>
          <CodeInput
            label={way === 'email' ? 'Код из письма' : 'Код из приложения'}
            value={code}
            length={ONE_TIME_CODE_LENGTH}
            isInvalid={error !== null}
            disabled={isBusy}
            autoFocus
            onChange={(value) => {
              setCode(value);
              setError(null);
            }}
            onComplete={(value) =>
              void prove(way === 'email' ? { emailCode: value } : { code: value })
            }
          />
          <p className={styles.codeError} role="alert">
            {error}
          </p>
        </div>
      )}
      {way === 'email' ? (
        <ResendCodeButton code={mailedCode} />
      ) : (
        <LinkButton disabled={mailedCode.isSending} onClick={() => void choose('email')}>
          Получить код на почту
        </LinkButton>
      )}
      {way === 'email' && firstOffered !== 'email' ? (
        <LinkButton onClick={() => void choose(firstOffered)}>
          {firstOffered === 'password' ? 'Ввести пароль' : 'Ввести код из приложения'}
        </LinkButton>
      ) : null}
      {/* Laid out as a modal's footer: the step replaces the dialog's own. */}
      <div className={modalStyles.footer}>
        <Button variant="secondary" onClick={onCancel}>
          Отмена
        </Button>
        <Button type="submit" disabled={isBusy} aria-busy={isBusy}>
          Продолжить
        </Button>
      </div>
    </form>
  );
}
