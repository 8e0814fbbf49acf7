import { TYPED_CODE_MAX_LENGTH } from '@portal/contracts/typed-code';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '@/shared/ui/text-field';
import styles from './auth-forms.module.css';
import type { SecondFactorKind } from './auth-slice';

const COPY = {
  authenticator: {
    label: 'Код подтверждения',
    hint: 'Шесть цифр из приложения-аутентификатора',
    placeholder: '000000',
    switchTo: 'Использовать резервный код',
  },
  recovery: {
    label: 'Резервный код',
    hint: 'Один из кодов, сохранённых при включении защиты; каждый действует один раз',
    placeholder: 'xxxxx-xxxxx',
    switchTo: 'Использовать код из приложения',
  },
} as const;

type TwoFactorCodeFieldProps = {
  registration: UseFormRegisterReturn<'twoFactorCode'>;
  kind: SecondFactorKind;
  onKindChange: (kind: SecondFactorKind) => void;
  error?: string;
};

/**
 * The login form's second-factor field, shown once the server answered `requiresTwoFactor`. Both
 * kinds travel in `twoFactorCode`; the server tells them apart by shape.
 */
export function TwoFactorCodeField({
  registration,
  kind,
  onKindChange,
  error,
}: TwoFactorCodeFieldProps) {
  const copy = COPY[kind];
  const isRecovery = kind === 'recovery';
  return (
    <TextField
      // A new kind is a new field: empty, focused, with its own keyboard.
      key={kind}
      {...registration}
      label={copy.label}
      hint={copy.hint}
      error={error}
      placeholder={copy.placeholder}
      inputMode={isRecovery ? 'text' : 'numeric'}
      autoComplete={isRecovery ? 'off' : 'one-time-code'}
      autoCapitalize="none"
      spellCheck={false}
      // Room for «123 456» or «k3f9q-7wx2m» as typed: the schema keeps only the code.
      maxLength={TYPED_CODE_MAX_LENGTH}
      autoFocus
      labelAside={
        <button
          type="button"
          className={styles.linkButton}
          onClick={() => onKindChange(isRecovery ? 'authenticator' : 'recovery')}
        >
          {copy.switchTo}
        </button>
      }
    />
  );
}
