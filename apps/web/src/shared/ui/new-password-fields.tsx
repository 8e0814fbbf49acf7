import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
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
  const { register, clearErrors, getFieldState, formState } = form;
  // react-hook-form cannot see that a generic form's paths include these two names.
  const field = (name: keyof NewPasswordValues) => {
    const path = name as Path<T>;
    return {
      ...register(path, { onChange: () => clearErrors(path) }),
      error: getFieldState(path, formState).error?.message,
    };
  };
  return (
    <>
      <TextField
        {...field('newPassword')}
        type="password"
        label="Новый пароль"
        autoComplete="new-password"
      />
      <TextField
        {...field('repeatPassword')}
        type="password"
        label="Повторите пароль"
        autoComplete="new-password"
      />
    </>
  );
}
