import type { EmailChangeNewEmailForm } from '@portal/contracts/profile';
import type { FormEventHandler } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { TextField } from '@/shared/ui/text-field';

/** The new address; its code is asked for on submit. */
export function EmailChangeNewEmailStep({
  form,
  isBusy,
  onSubmit,
}: {
  /** Owned by the dialog, which puts the server's refusal of the address under it. */
  form: UseFormReturn<EmailChangeNewEmailForm>;
  isBusy: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
}) {
  return (
    <form className={blocks.stack} noValidate onSubmit={onSubmit}>
      <TextField
        label="Новая почта"
        type="email"
        autoComplete="email"
        autoFocus
        error={form.formState.errors.email?.message}
        {...form.register('email')}
      />
      <Button type="submit" disabled={isBusy} aria-busy={isBusy}>
        Получить код
      </Button>
    </form>
  );
}
