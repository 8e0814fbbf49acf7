import type { PasswordChangeForm } from '@portal/contracts/security';
import type { FormEventHandler } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { clearingField } from '@/shared/lib/clearing-field';
import blocks from '@/shared/ui/blocks.module.css';
import { Checkbox } from '@/shared/ui/checkbox';
import { NewPasswordFields } from '@/shared/ui/new-password-fields';
import { TextField } from '@/shared/ui/text-field';

type PasswordChangeFormStepProps = {
  id: string;
  /** Owned by the dialog, so the typed passwords survive a step back to the code. */
  form: UseFormReturn<PasswordChangeForm>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  logoutOtherSessions: boolean;
  onLogoutOtherSessionsChange: (value: boolean) => void;
};

/** The current password, the new one twice, and 'sign out everywhere else'. */
export function PasswordChangeFormStep({
  id,
  form,
  onSubmit,
  logoutOtherSessions,
  onLogoutOtherSessionsChange,
}: PasswordChangeFormStepProps) {
  return (
    <form id={id} className={blocks.stack} onSubmit={onSubmit} noValidate>
      <TextField
        {...clearingField(form, 'oldPassword')}
        type="password"
        label="Текущий пароль"
        autoComplete="current-password"
        autoFocus
      />
      <NewPasswordFields form={form} />
      <Checkbox
        checked={logoutOtherSessions}
        onChange={(event) => onLogoutOtherSessionsChange(event.target.checked)}
      >
        Выйти на всех остальных устройствах
      </Checkbox>
    </form>
  );
}
