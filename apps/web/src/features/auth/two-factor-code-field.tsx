import { LOGIN_TWO_FACTOR_CODE_LENGTH } from '@portal/contracts/constants';
import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '@/shared/ui/text-field';

type TwoFactorCodeFieldProps = {
  registration: UseFormRegisterReturn<'twoFactorCode'>;
  error?: string;
  /**
   * Beside the label: the place for the account-security issue's 'Использовать резервный код'
   * switch (a recovery code instead of the authenticator's). The switch changes `label`, `hint`
   * and `maxLength` here and the schema of the login form; the code still goes in `twoFactorCode`.
   */
  aside?: ReactNode;
  label?: string;
  hint?: string;
  maxLength?: number;
};

/** The login form's second-factor field, shown once the server answered `requiresTwoFactor`. */
export function TwoFactorCodeField({
  registration,
  error,
  aside,
  label = 'Код подтверждения',
  hint = 'Шесть цифр из приложения-аутентификатора',
  maxLength = LOGIN_TWO_FACTOR_CODE_LENGTH,
}: TwoFactorCodeFieldProps) {
  return (
    <TextField
      {...registration}
      label={label}
      labelAside={aside}
      hint={hint}
      error={error}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={maxLength}
      placeholder="000000"
      autoFocus
    />
  );
}
