import type { ComponentProps } from 'react';
import { TextField } from './text-field';

type FieldProps = Omit<ComponentProps<typeof TextField>, 'type' | 'label' | 'autoComplete'>;

/**
 * The new password and its repeat, asked the same way wherever a password is replaced (reset and
 * change, spec §2). Pass each field's `register(...)` result and its `error`.
 */
export function NewPasswordFields({
  newPassword,
  repeatPassword,
}: {
  newPassword: FieldProps;
  repeatPassword: FieldProps;
}) {
  return (
    <>
      <TextField
        {...newPassword}
        type="password"
        label="Новый пароль"
        autoComplete="new-password"
      />
      <TextField
        {...repeatPassword}
        type="password"
        label="Повторите пароль"
        autoComplete="new-password"
      />
    </>
  );
}
