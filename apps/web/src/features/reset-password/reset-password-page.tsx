import { useEffect, useReducer, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { BrandCard } from '@/shared/ui/brand-card';
import { ResetCodeStep } from './reset-code-step';
import { ResetDoneStep } from './reset-done-step';
import { ResetEmailStep } from './reset-email-step';
import {
  backToEmail,
  codeReopened,
  codeResent,
  codeSent,
  isCodeOnItsWay,
  passwordReset,
  type ResetPasswordState,
  resetPasswordFlow,
  resetPasswordStateFor,
} from './reset-password-flow';
import { readStoredReset, storeReset } from './stored-reset';

/** The code step has an address of its own, so the browser's Back returns to the first step. */
const CODE_STEP_SEARCH = '?step=code';

/**
 * /reset-password: step 1 → step 2 once the code request succeeded → step 3 once the
 * reset succeeded; step 2 can go back to 1, step 3 leads to /auth. Going on again from step 1
 * with the same address inside the resend countdown asks the server nothing (it would send no
 * letter): step 2 says the code is already on its way and its countdown goes on.
 */
export default function ResetPasswordPage() {
  // «Это был не я» opens the code step for the code it mailed (`ResetPasswordEntry`); a reload or
  // Back finds the step kept in sessionStorage (stored-reset.ts).
  const location = useLocation();
  const navigate = useNavigate();
  const isCodeAddress = location.search === CODE_STEP_SEARCH;
  const [flow, dispatch] = useReducer(
    resetPasswordFlow.reducer,
    location.state,
    (given: unknown): ResetPasswordState => {
      const entered = resetPasswordStateFor(given, Date.now());
      if (entered.step === 'code') return entered;
      const stored = readStoredReset();
      if (!stored) return entered;
      return { ...stored, step: isCodeAddress && stored.step === 'code' ? 'code' : 'email' };
    },
  );
  const { step, email } = flow;

  useEffect(() => storeReset(flow), [flow]);

  // The step and the address follow each other: entering the code step adds it to the history
  // (so Back leaves it for the first step, not the page); Back or Forward moves the step.
  const shownSearch = useRef(location.search);
  useEffect(() => {
    const hasAddressChanged = shownSearch.current !== location.search;
    shownSearch.current = location.search;
    if (hasAddressChanged) {
      if (!isCodeAddress && step === 'code') dispatch(backToEmail());
      if (isCodeAddress && step === 'email' && flow.resendAt > 0) dispatch(codeReopened());
      return;
    }
    if (step === 'code' && !isCodeAddress) {
      navigate({ search: CODE_STEP_SEARCH }, { replace: location.state !== null });
    }
    if (step !== 'code' && isCodeAddress) navigate({ search: '' }, { replace: true });
  }, [step, isCodeAddress, location.search, location.state, flow.resendAt, navigate]);

  return (
    <BrandCard>
      {step === 'email' && (
        <ResetEmailStep
          defaultEmail={email}
          isCodeOnItsWay={(address) => isCodeOnItsWay(flow, address, Date.now())}
          onCodeOnItsWay={() => dispatch(codeReopened())}
          onCodeSent={(address) => dispatch(codeSent({ email: address, at: Date.now() }))}
        />
      )}
      {step === 'code' && (
        <ResetCodeStep
          email={email}
          resendAt={flow.resendAt}
          isReopened={flow.isReopened}
          onResent={() => dispatch(codeResent({ at: Date.now() }))}
          onBack={() => dispatch(backToEmail())}
          onPasswordReset={() => dispatch(passwordReset())}
        />
      )}
      {step === 'done' && <ResetDoneStep />}
    </BrandCard>
  );
}
