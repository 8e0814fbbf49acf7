import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/**
 * A form field's props for `TextField` where a refusal stands under the field until the person
 * types again (a wrong code, an unknown address, a password): registered so that editing it
 * clears its error, and its first message.
 */
export function clearingField<T extends FieldValues>(form: UseFormReturn<T>, name: Path<T>) {
  return {
    ...form.register(name, { onChange: () => form.clearErrors(name) }),
    error: form.getFieldState(name, form.formState).error?.message,
  };
}
