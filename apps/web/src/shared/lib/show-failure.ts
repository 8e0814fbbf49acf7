import type { ApiFailure } from '@/shared/api/api-failure';
import { notify } from '@/shared/ui/toast';

/**
 * Puts a field's message where the form shows it: react-hook-form's `setError` fits as it is; a
 * step that keeps its messages in a reducer passes a function of its own.
 */
export type ShowUnderField<Field extends string> = (
  field: Field,
  error: { message: string },
  options: { shouldFocus: boolean },
) => void;

/** The first message of each of `fields` the answer names, in the order of `fields`. */
export function fieldMessages<Field extends string>(
  failure: ApiFailure,
  fields: readonly Field[],
): [Field, string][] {
  const found: [Field, string][] = [];
  for (const field of fields) {
    const message = failure.errors[field]?.[0];
    if (message) found.push([field, message]);
  }
  return found;
}

/**
 * The one way a form shows a refused call, and shows it once: under each of its `fields` the
 * answer names (the first of them focused), or, when it names none of them, as a toast
 * (`toastText`, by default the failure's own text). Never both, never neither. Answers whether
 * a field took it.
 */
export function showFailure<Field extends string>(
  failure: ApiFailure,
  fields: readonly Field[],
  showUnderField: ShowUnderField<Field>,
  toastText: string | readonly string[] = failure.text,
): boolean {
  const found = fieldMessages(failure, fields);
  found.forEach(([field, message], index) => {
    showUnderField(field, { message }, { shouldFocus: index === 0 });
  });
  if (found.length === 0) for (const text of [toastText].flat()) notify.error(text);
  return found.length > 0;
}
