import { NO_CONNECTION } from '@portal/contracts/messages';
import type { ResolverOptions } from 'react-hook-form';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { lazyResolver, notifyIfNotChecked } from './lazy-resolver';

const toasts = vi.hoisted(() => ({ error: vi.fn() }));
vi.mock('@/shared/ui/toast', () => ({ notify: toasts }));

const schema = z.object({ name: z.string().min(1, 'Введите имя') });
type Values = z.input<typeof schema>;
const options: ResolverOptions<Values> = {
  names: ['name'],
  fields: {},
  shouldUseNativeValidation: false,
};

beforeEach(() => {
  toasts.error.mockClear();
});

describe('lazyResolver', () => {
  it('checks by the schema once it loaded', async () => {
    const resolver = lazyResolver<Values, unknown, Values>(async () => schema);
    expect(await resolver({ name: 'Иван' }, undefined, options)).toEqual({
      values: { name: 'Иван' },
      errors: {},
    });
    const refused = await resolver({ name: '' }, undefined, options);
    expect(refused.errors.name?.message).toBe('Введите имя');
  });

  it('a schema that cannot load passes nothing on, and the next check loads it again', async () => {
    const loadSchema = vi
      .fn<() => Promise<typeof schema>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(schema);
    const resolver = lazyResolver<Values, unknown, Values>(loadSchema);

    const unchecked = await resolver({ name: 'Иван' }, undefined, options);
    expect(unchecked.values).toEqual({});
    expect(unchecked.errors).toEqual({ root: { type: 'not-checked', message: NO_CONNECTION } });
    notifyIfNotChecked(unchecked.errors);
    expect(toasts.error).toHaveBeenCalledWith(NO_CONNECTION);

    expect(await resolver({ name: 'Иван' }, undefined, options)).toEqual({
      values: { name: 'Иван' },
      errors: {},
    });
    expect(loadSchema).toHaveBeenCalledTimes(2);
  });

  it('preload loads the check ahead, and a preload that fails leaves the check to load again', async () => {
    const loadSchema = vi
      .fn<() => Promise<typeof schema>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(schema);
    const resolver = lazyResolver<Values, unknown, Values>(loadSchema);

    resolver.preload();
    expect(loadSchema).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(loadSchema.mock.settledResults[0]?.type).toBe('rejected'));

    expect(await resolver({ name: 'Иван' }, undefined, options)).toEqual({
      values: { name: 'Иван' },
      errors: {},
    });
    expect(loadSchema).toHaveBeenCalledTimes(2);
    expect(toasts.error).not.toHaveBeenCalled();
  });

  it('a field found wrong is not a missing connection: no toast', async () => {
    const resolver = lazyResolver<Values, unknown, Values>(async () => schema);
    notifyIfNotChecked((await resolver({ name: '' }, undefined, options)).errors);
    expect(toasts.error).not.toHaveBeenCalled();
  });
});
