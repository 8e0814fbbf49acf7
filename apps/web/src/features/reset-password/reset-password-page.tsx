import { useReducer } from 'react';
import { useLocation } from 'react-router';
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
  resetPasswordFlow,
  resetPasswordStateFor,
} from './reset-password-flow';

/**
 * /reset-password: step 1 → step 2 once the code request succeeded → step 3 once the
 * reset succeeded; step 2 can go back to 1, step 3 leads to /auth. Going on again from step 1
 * with the same address inside the resend countdown asks the server nothing (it would send no
 * letter): step 2 says the code is already on its way and its countdown goes on.
 */
export default function ResetPasswordPage() {
  // «Это был не я» opens the code step for the code it mailed (`ResetPasswordEntry`).
  const { state: entry } = useLocation();
  const [flow, dispatch] = useReducer(resetPasswordFlow.reducer, entry, (given: unknown) =>
    resetPasswordStateFor(given, Date.now()),
  );
  const { step, email } = flow;

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
