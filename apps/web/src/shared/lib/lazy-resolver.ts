import type { FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * react-hook-form's zod resolver for a schema that loads with the form's first check: a form on
 * a first visit's screen (/auth) shows and takes typing before zod and the contracts' schemas
 * arrive (the first-visit budgets of apps/web/e2e/budgets-auth-bundle.e2e.ts). `loadSchema` gets
 * the form's context, so one form can check each of its steps by its own schema.
 */
export function lazyResolver<Input extends FieldValues, Context, Output>(
  loadSchema: (context: Context | undefined) => Promise<z.ZodType<Output, Input>>,
): Resolver<Input, Context, Output> {
  let library: Promise<typeof import('@hookform/resolvers/zod')> | undefined;
  return async (values, context, options) => {
    library ??= import('@hookform/resolvers/zod');
    const [schema, { zodResolver }] = await Promise.all([loadSchema(context), library]);
    const resolve: Resolver<Input, Context, Output> = zodResolver(schema);
    return resolve(values, context, options);
  };
}
