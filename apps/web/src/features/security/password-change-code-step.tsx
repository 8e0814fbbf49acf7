import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import type { MailedCode } from '@/shared/lib/use-mailed-code';
import blocks from '@/shared/ui/blocks.module.css';
import { CodeInput } from '@/shared/ui/code-input';
import { ResendCodeButton } from '@/shared/ui/resend-code-button';
import styles from './security.module.css';

type PasswordChangeCodeStepProps = {
  usesAuthenticator: boolean;
  code: string;
  codeError: string | null;
  onCodeChange: (code: string) => void;
  mailedCode: MailedCode;
};

/** The password change's code: six boxes, and for a mailed code the resend button. */
export function PasswordChangeCodeStep({
  usesAuthenticator,
  code,
  codeError,
  onCodeChange,
  mailedCode,
}: PasswordChangeCodeStepProps) {
  const user = useAppSelector(selectUser);
  return (
    <div className={blocks.stack}>
      <p className={blocks.lead}>
        {usesAuthenticator ? (
          'Введите код из приложения Google Authenticator.'
        ) : (
          <>
            Мы отправили код на <strong>{user?.email}</strong>. Введите его, чтобы сменить пароль.
          </>
        )}
      </p>
      <div className={styles.codeField}>
        <CodeInput
          label={usesAuthenticator ? 'Код из приложения' : 'Код из письма'}
          value={code}
          length={ONE_TIME_CODE_LENGTH}
          isInvalid={codeError !== null}
          autoFocus
          onChange={onCodeChange}
        />
        <p className={styles.codeError} role="alert">
          {codeError}
        </p>
      </div>
      {usesAuthenticator ? null : <ResendCodeButton code={mailedCode} />}
    </div>
  );
}
