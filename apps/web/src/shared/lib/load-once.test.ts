import { NO_CONNECTION } from '@portal/contracts/messages';
import { describe, expect, it, vi } from 'vitest';
import { toApiFailure } from '@/shared/api/api-failure';
import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('loads once, whoever asks and however often', async () => {
    const load = vi.fn(async () => ({ value: 1 }));
    const loaded = loadOnce(load);
    const [first, second] = await Promise.all([loaded(), loaded()]);
    expect(await loaded()).toBe(first);
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load, so the next call loads again', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce('the module');
    const loaded = loadOnce(load);
    await expect(loaded()).rejects.toThrow();
    expect(await loaded()).toBe('the module');
    expect(await loaded()).toBe('the module');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('fails as a call with no answer: the person reads «Нет соединения…» in Russian', async () => {
    const loaded = loadOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    const failure = toApiFailure(await loaded().catch((error: unknown) => error));
    expect(failure).toMatchObject({ isRequestError: true, status: null, text: NO_CONNECTION });
  });
});
