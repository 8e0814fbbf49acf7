import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { clearingField } from '@/shared/lib/clearing-field';
import { TextField } from './text-field';

type NewPasswordValues = { newPassword: string; repeatPassword: string };

/**
 * The new password and its repeat, asked the same way wherever a password is replaced (reset and
 * change), in the caller's form: each field shows its first message, and editing it clears it.
 */
export function NewPasswordFields<T extends FieldValues & NewPasswordValues>({
  form,
}: {
  form: UseFormReturn<T>;
}) {
  // react-hook-form cannot see that a generic form's paths include these two names.
  return (
    <>
      <TextField
        {...clearingField(form, 'newPassword' as Path<T>)}
        type="password"
        label="Новый пароль"
        autoComplete="new-password"
      />
      <TextField
        {...clearingField(form, 'repeatPassword' as Path<T>)}
        type="password"
        label="Повторите пароль"
        autoComplete="new-password"
      />
    </>
  );
}
