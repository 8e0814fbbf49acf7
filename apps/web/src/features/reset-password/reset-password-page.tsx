import { useState } from 'react';
import { BrandCard } from '@/shared/ui/brand-card';
import { ResetCodeStep } from './reset-code-step';
import { ResetDoneStep } from './reset-done-step';
import { ResetEmailStep } from './reset-email-step';

type Step = 'email' | 'code' | 'done';

/**
 * /reset-password (spec §2, §4): step 1 → step 2 once the code request succeeded → step 3 once the
 * reset succeeded; step 2 can go back to 1, step 3 leads to /auth.
 */
export default function ResetPasswordPage() {
  const [step, setStep] = useState<Step>('email');
  const [email, setEmail] = useState('');

  return (
    <BrandCard>
      {step === 'email' && (
        <ResetEmailStep
          defaultEmail={email}
          onCodeSent={(address) => {
            setEmail(address);
            setStep('code');
          }}
        />
      )}
      {step === 'code' && (
        <ResetCodeStep
          email={email}
          onBack={() => setStep('email')}
          onPasswordReset={() => setStep('done')}
        />
      )}
      {step === 'done' && <ResetDoneStep />}
    </BrandCard>
  );
}
