import type { FormEvent } from 'react';

/**
 * A form's `onSubmit` for a form the page sends itself (not through react-hook-form's
 * `handleSubmit`): the browser's own submit, a page load, is stopped, then `act` runs.
 */
export function submitInPlace(act: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    act();
  };
}
