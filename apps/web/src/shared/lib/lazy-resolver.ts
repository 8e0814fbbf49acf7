import { NO_CONNECTION } from '@portal/contracts/messages';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { notify } from '@/shared/ui/toast';
import { loadOnce } from './load-once';

const loadZodResolver = loadOnce(() => import('@hookform/resolvers/zod'));

/** The form-wide error of a check whose schema could not load (no connection). */
const NOT_CHECKED = 'not-checked';

/**
 * react-hook-form's zod resolver for a schema that loads with the form's first check: a form on
 * a first visit's screen (/auth) shows and takes typing before zod and the contracts' schemas
 * arrive (the first-visit budgets of apps/web/e2e/budgets-auth-bundle.e2e.ts). `loadSchema` gets
 * the form's context, so one form can check each of its steps by its own schema.
 *
 * A check whose code cannot load (no connection) finds no field wrong and passes nothing on: the
 * form stays as typed, its submit goes no further, and the next check (a keystroke, a submit)
 * loads again. The submit says so with `notifyIfNotChecked` — a rejected resolver would end it in
 * silence, and a toast on every keystroke would be noise.
 */
export function lazyResolver<Input extends FieldValues, Context, Output>(
  loadSchema: (context: Context | undefined) => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, Context, Output> & { preload: () => void } {
  const resolver: Resolver<Input, Context, Output> = async (values, context, options) => {
    let resolve: Resolver<Input, Context, Output>;
    try {
      const [schema, { zodResolver }] = await Promise.all([loadSchema(context), loadZodResolver()]);
      resolve = zodResolver(schema);
    } catch {
      return {
        values: {},
        errors: { root: { type: NOT_CHECKED, message: NO_CONNECTION } } as FieldErrors<Input>,
      };
    }
    return resolve(values, context, options);
  };
  /**
   * Loads the first check's code ahead, e.g. when the person starts typing into a form checked on
   * submit, so the submit answers at once. A load that fails is tried again by the check itself.
   */
  const preload = () => {
    Promise.all([loadSchema(undefined), loadZodResolver()]).catch(() => {});
  };
  return Object.assign(resolver, { preload });
}

/**
 * handleSubmit's `onInvalid` for a form checked by `lazyResolver`: a submit whose check could not
 * load tells the person there is no connection (a field found wrong shows under its field).
 */
export function notifyIfNotChecked(errors: FieldErrors): void {
  if (errors.root?.type === NOT_CHECKED) notify.error(NO_CONNECTION);
}
