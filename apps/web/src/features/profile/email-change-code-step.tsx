import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { useEffect, useRef } from 'react';
import { submitInPlace } from '@/shared/lib/submit-in-place';
import blocks from '@/shared/ui/blocks.module.css';
import { CodeInput } from '@/shared/ui/code-input';
import styles from './profile.module.css';

type EmailChangeCodeStepProps = {
  /** The address the code went to. */
  email: string;
  code: string;
  codeError: string | null;
  isBusy: boolean;
  /** Every change of the digits; the dialog sends a full code at once. */
  onCodeChange: (code: string) => void;
  onSubmit: () => void;
  onResend: () => void;
};

/** Either address's code: six boxes, the reason of a refusal, and 'Отправить код ещё раз'. */
export function EmailChangeCodeStep({
  email,
  code,
  codeError,
  isBusy,
  onCodeChange,
  onSubmit,
  onResend,
}: EmailChangeCodeStepProps) {
  const codeRef = useRef<HTMLInputElement>(null);

  // The refused digits stay (red) but are selected, so the next digit typed starts a new code.
  useEffect(() => {
    const input = codeRef.current;
    if (!codeError || isBusy || !input) return;
    input.focus();
    input.setSelectionRange(0, input.value.length);
  }, [codeError, isBusy]);

  return (
    <form className={blocks.stack} noValidate onSubmit={submitInPlace(onSubmit)}>
      <p className={blocks.lead}>
        Введите код из письма, отправленного на <strong>{email}</strong>
      </p>
      <CodeInput
        ref={codeRef}
        label="Код подтверждения"
        value={code}
        autoFocus
        length={ONE_TIME_CODE_LENGTH}
        isInvalid={codeError !== null}
        disabled={isBusy}
        onChange={onCodeChange}
      />
      {codeError ? (
        <p className={styles.codeError} role="alert">
          {codeError}
        </p>
      ) : null}
      <button type="button" className={styles.linkButton} disabled={isBusy} onClick={onResend}>
        Отправить код ещё раз
      </button>
    </form>
  );
}
