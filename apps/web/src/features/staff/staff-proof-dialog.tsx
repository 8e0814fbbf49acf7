import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { TWO_FACTOR_CODE_LENGTH } from '@portal/contracts/messages';
import { STAFF_PROOF_REQUIRED, type StaffMeAnswer } from '@portal/contracts/staff';
import { useState } from 'react';
import { failureOf } from '@/shared/api/api-failure';
import { isPasskeyCancelled, isWebAuthnAvailable, signWithPasskey } from '@/shared/lib/webauthn';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { CodeInput } from '@/shared/ui/code-input';
import { Modal } from '@/shared/ui/modal';
import {
  usePasskeyProofOptionsMutation,
  useProveWithCodeMutation,
  useProveWithPasskeyMutation,
} from './api/staff-api';
import { settleStaffProof, useStaffProofAsked } from './api/staff-proof-gate';
import styles from './staff.module.css';

/**
 * «Подтвердите, что это вы»: open while a staff call waits for a proof (api/staff-proof-gate.ts).
 * A passkey (the browser's dialog) or the authenticator's 6-digit code; once the server takes
 * either, every waiting call is repeated. Closed without a proof, the calls keep their refusal.
 */
export function StaffProofDialog({ methods }: { methods: StaffMeAnswer['proofMethods'] }) {
  const isAsked = useStaffProofAsked();
  return (
    <Modal
      isOpen={isAsked}
      onOpenChange={(isOpen) => {
        if (!isOpen) settleStaffProof(false);
      }}
      title="Подтвердите, что это вы"
      description={STAFF_PROOF_REQUIRED}
    >
      {isAsked ? <ProofWays methods={methods} /> : null}
    </Modal>
  );
}

function ProofWays({ methods }: { methods: StaffMeAnswer['proofMethods'] }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [getOptions] = usePasskeyProofOptionsMutation();
  const [proveWithPasskey] = useProveWithPasskeyMutation();
  const [proveWithCode] = useProveWithCodeMutation();
  const [isBusy, setIsBusy] = useState(false);
  const hasPasskey = methods.includes('passkey') && isWebAuthnAvailable();
  const hasAuthenticator = methods.includes('authenticator');

  async function prove(run: () => Promise<{ error?: unknown } | undefined>) {
    setIsBusy(true);
    setError(null);
    try {
      const result = await run();
      if (!result) return;
      if (result.error) {
        setError(failureOf(result.error).text);
        setCode('');
        return;
      }
      settleStaffProof(true);
    } finally {
      setIsBusy(false);
    }
  }

  const withPasskey = () =>
    prove(async () => {
      const options = await getOptions();
      if (options.error) return options;
      try {
        const credential = await signWithPasskey(options.data);
        return await proveWithPasskey({ credential });
      } catch (cause) {
        // Closed the browser's dialog: nothing to say, the ways stay offered.
        if (isPasskeyCancelled(cause)) return undefined;
        return { error: cause };
      }
    });

  const withCode = (value: string) => {
    if (value.length !== ONE_TIME_CODE_LENGTH) {
      setError(TWO_FACTOR_CODE_LENGTH);
      return;
    }
    void prove(() => proveWithCode({ code: value }));
  };

  return (
    <div className={blocks.stack}>
      {hasPasskey ? (
        <Button onClick={() => void withPasskey()} disabled={isBusy} aria-busy={isBusy}>
          Войти ключом доступа
        </Button>
      ) : null}
      {hasAuthenticator ? (
        <form
          className={blocks.stack}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            withCode(code);
          }}
        >
          <CodeInput
            label="Код из приложения-аутентификатора"
            value={code}
            length={ONE_TIME_CODE_LENGTH}
            isInvalid={error !== null}
            disabled={isBusy}
            autoFocus={!hasPasskey}
            onChange={(value: string) => {
              setCode(value);
              setError(null);
            }}
            onComplete={withCode}
          />
          <Button type="submit" variant="secondary" disabled={isBusy}>
            Подтвердить кодом
          </Button>
        </form>
      ) : null}
      <p className={styles.error} role="alert">
        {error}
      </p>
    </div>
  );
}
