import { memoryStorage } from '@test-support/memory-storage';
import { testUser } from '@test-support/test-user';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedOut } from '@/features/auth/auth-actions';
import { fetchCurrentUser, userMerged } from '@/features/auth/user-slice';
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

  it('reads again what depends on the user once a field of it changed, not on the same user', async () => {
    let reads = 0;
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(++reads)));
    const { portalApi } = await import('@/shared/api/portal-api');
    const probe = portalApi.injectEndpoints({
      endpoints: (build) => ({
        userProbe: build.query<number, void>({
          query: () => ({ url: '/user-probe' }),
          providesTags: ['User'],
        }),
      }),
    });
    const store = createStore();
    const user = { ...testUser, balance: 100 };
    const read = (payload: typeof user) =>
      store.dispatch(fetchCurrentUser.fulfilled(payload, 'request'));
    read(user);
    const request = store.dispatch(probe.endpoints.userProbe.initiate());
    expect((await request).data).toBe(1);

    // The same values read again (a new object): nothing is read again (a refetch would be
    // pending at once).
    read({ ...user });
    const probed = () => probe.endpoints.userProbe.select()(store.getState() as never);
    expect(probed()).toMatchObject({ status: 'fulfilled', data: 1 });
    // A top-up changed the balance: the query reads again.
    read({ ...user, balance: 250 });
    await vi.waitFor(() => expect(probed().data).toBe(2));
    // A merge after a profile change, too.
    store.dispatch(userMerged({ firstName: 'Пётр' }));
    await vi.waitFor(() => expect(probed().data).toBe(3));
    expect(reads).toBe(3);
    request.unsubscribe();
  });
});
