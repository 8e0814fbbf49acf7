import { TYPED_CODE_MAX_LENGTH } from '@portal/contracts/typed-code';
import type { UseFormReturn } from 'react-hook-form';
import { clearingField } from '@/shared/lib/clearing-field';
import { TextField } from '@/shared/ui/text-field';

type AuthenticatorCodeFieldProps = {
  /** The dialog's form, whose one field is `code`. */
  form: UseFormReturn<{ code: string }>;
  label: string;
  /** Only the app's code is taken (no recovery code): a phone shows its digit keys. */
  isDigitsOnly?: boolean;
  autoFocus?: boolean;
};

/**
 * The code field of the authenticator's dialogs (connecting it, a change confirmed by its code):
 * room for a code typed with spaces (the schema keeps only the code), its error gone as soon as
 * the code is typed again.
 */
export function AuthenticatorCodeField({
  form,
  label,
  isDigitsOnly = false,
  autoFocus = false,
}: AuthenticatorCodeFieldProps) {
  return (
    <TextField
      {...clearingField(form, 'code')}
      label={label}
      placeholder="000000"
      inputMode={isDigitsOnly ? 'numeric' : undefined}
      autoComplete="one-time-code"
      maxLength={TYPED_CODE_MAX_LENGTH}
      autoFocus={autoFocus}
    />
  );
}
