import { memoryStorage } from '@test-support/memory-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedOut } from '@/features/auth/auth-actions';
import { createStore } from './store';

type ApiState = { queries: Record<string, { status: string; data?: unknown } | undefined> };
const apiState = (store: ReturnType<typeof createStore>) =>
  (store.getState() as unknown as { portalApi?: ApiState }).portalApi;

describe('the store and the API slice that joins it late', () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage({ access_token: 'tok-1' })));
  afterEach(() => vi.unstubAllGlobals());

  it('takes the API slice when its code arrives, caches answers and forgets them on signing out', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(true)));
    const early = createStore();
    // Nothing of RTK Query yet: the code /auth starts with has none of it.
    expect(apiState(early)).toBeUndefined();

    const { portalApi } = await import('@/shared/api/portal-api');
    const probe = portalApi.injectEndpoints({
      endpoints: (build) => ({
        probe: build.query<boolean, void>({ query: () => ({ url: '/probe' }) }),
      }),
    });
    const late = createStore();
    for (const store of [early, late]) {
      expect(apiState(store)).toBeDefined();
      const request = store.dispatch(probe.endpoints.probe.initiate());
      await request;
      expect(apiState(store)?.queries['probe(undefined)']).toMatchObject({
        status: 'fulfilled',
        data: true,
      });
      request.unsubscribe();
      store.dispatch(signedOut());
      expect(apiState(store)?.queries).toEqual({});
    }
  });
});
