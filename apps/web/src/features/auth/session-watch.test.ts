import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { memoryStorage } from '@test-support/memory-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { msApi, onSessionRefused } from '@/shared/api/http';
import { readAccessToken } from '@/shared/api/token-storage';
import { postLogin } from './api/login';
import { postLogout } from './api/logout';
import { signIn } from './auth-session';
import { authSlice } from './auth-slice';
import {
  endRefusedSession,
  followStoredToken,
  isTokenChange,
  recheckSession,
} from './session-watch';
import { fetchCurrentUser, userSlice } from './user-slice';

// The session's end as the app sees it: the real http client answering 401 (a fake `fetch`),
// the store, and the listener the app subscribes once (useSessionWatch, without React).

const AUTH = '/authms/api/Auth';
const user = { id: 'u-1', email: 'a@example.com', userName: 'player' };

const newStore = () => configureStore({ reducer: combineSlices(authSlice, userSlice) });
type Store = ReturnType<typeof newStore>;

/** Every path answers 401, as for a session revoked on the server. */
function refusingServer() {
  vi.stubGlobal(
    'fetch',
    async () =>
      new Response(JSON.stringify({ message: 'Недействительный токен' }), { status: 401 }),
  );
}

/** What useSessionWatch does with a refusal; counts the times the tab would leave for /auth. */
function watch(store: Store) {
  const departures: string[] = [];
  onSessionRefused((sentToken) => {
    if (store.dispatch(endRefusedSession(sentToken))) departures.push(sentToken);
  });
  return departures;
}

function signedInStore(token = 't-1') {
  const store = newStore();
  store.dispatch(signIn(token));
  return store;
}

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
});

afterEach(() => {
  onSessionRefused(null);
  vi.unstubAllGlobals();
});

describe('a session the server refuses', () => {
  it('signs out once, however many requests the server refused, and /auth says why', async () => {
    const store = signedInStore();
    const departures = watch(store);
    refusingServer();
    const calls = [
      store.dispatch(fetchCurrentUser()),
      msApi.get('/authms/api/Auth/devices', { requiresAuth: true }).catch(() => null),
      msApi.get('/paymentms/api/history', { requiresAuth: true }).catch(() => null),
    ];
    await Promise.all(calls);
    expect(departures).toEqual(['t-1']);
    expect(store.getState().auth).toMatchObject({
      isAuth: false,
      token: null,
      isSessionEnded: true,
    });
    expect(store.getState().user.data).toBeNull();
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('keeps the notice through a later sign-out reset, and drops it at the next sign-in', async () => {
    const store = signedInStore();
    watch(store);
    refusingServer();
    await store.dispatch(fetchCurrentUser());
    expect(store.getState().auth.isSessionEnded).toBe(true);
    store.dispatch(signIn('t-2'));
    expect(store.getState().auth).toMatchObject({ isSessionEnded: false, token: 't-2' });
  });

  it('is not told of a sign-in or a logout refused, nor of a call sent without a token', async () => {
    const store = signedInStore();
    const departures = watch(store);
    refusingServer();
    await expect(postLogin({ usernameOrEmail: 'player', password: 'wrong' })).rejects.toThrow();
    await expect(postLogout()).rejects.toThrow();
    expect(departures).toEqual([]);
    expect(store.getState().auth.isAuth).toBe(true);

    localStorage.clear();
    await expect(msApi.post(`${AUTH}/reset-password`, {})).rejects.toThrow();
    expect(departures).toEqual([]);
  });

  it('takes no read refused during its own logout for a session ended elsewhere', async () => {
    const store = signedInStore('t-leaving');
    const departures = watch(store);
    // The logout is answered first; a read sent with the same token (a refetch on focus) after.
    let answerRead: (response: Response) => void = () => {};
    vi.stubGlobal('fetch', async (url: string) =>
      url.endsWith('/logout')
        ? new Response(JSON.stringify({ message: 'ok' }), { status: 200 })
        : new Promise<Response>((resolve) => {
            answerRead = resolve;
          }),
    );
    const read = msApi.get(`${AUTH}/devices`, { requiresAuth: true }).catch(() => null);
    await postLogout();
    answerRead(
      new Response(JSON.stringify({ message: 'Недействительный токен' }), { status: 401 }),
    );
    await read;
    expect(departures).toEqual([]);
    expect(store.getState().auth.isSessionEnded).toBe(false);
    // Another token's refusal is still an ended session.
    store.dispatch(signIn('t-next'));
    refusingServer();
    await msApi.get(`${AUTH}/devices`, { requiresAuth: true }).catch(() => null);
    expect(departures).toEqual(['t-next']);
  });

  it('leaves a session stored since the refused request was sent alone', async () => {
    const store = signedInStore('t-old');
    const departures = watch(store);
    store.dispatch(signIn('t-new'));
    expect(store.dispatch(endRefusedSession('t-old'))).toBe(false);
    expect(departures).toEqual([]);
    expect(store.getState().auth).toMatchObject({ isAuth: true, token: 't-new' });
    expect(localStorage.getItem('access_token')).toBe('t-new');
  });

  it("leaves another tab's new sign-in alone, even before its storage event came", () => {
    const store = signedInStore('t-old');
    localStorage.setItem('access_token', 't-other');
    expect(store.dispatch(endRefusedSession('t-old'))).toBe(false);
    expect(localStorage.getItem('access_token')).toBe('t-other');
    expect(store.getState().auth.isSessionEnded).toBe(false);
  });
});

describe('a session checked again after a reset that signed out everywhere', () => {
  it('asks the server when signed in: a refusal signs out with the notice', async () => {
    const store = signedInStore();
    const departures = watch(store);
    refusingServer();
    store.dispatch(recheckSession());
    await vi.waitFor(() => expect(store.getState().auth.isAuth).toBe(false));
    expect(departures).toEqual(['t-1']);
    expect(store.getState().auth.isSessionEnded).toBe(true);
  });

  it('asks nothing when signed out', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    newStore().dispatch(recheckSession());
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('another tab changed the stored token', () => {
  it('reacts only to the access token (or the whole storage cleared)', () => {
    expect(isTokenChange({ key: 'access_token' })).toBe(true);
    expect(isTokenChange({ key: null })).toBe(true);
    expect(isTokenChange({ key: 'theme' })).toBe(false);
  });

  it('signed out there: signed out here, the user state gone, off to /auth', () => {
    const store = signedInStore();
    store.dispatch(fetchCurrentUser.fulfilled(user as never, 'r-1'));
    localStorage.removeItem('access_token');
    expect(store.dispatch(followStoredToken(null))).toBe(true);
    expect(store.getState().auth).toMatchObject({ isAuth: false, token: null });
    expect(store.getState().user).toEqual({ status: 'idle', data: null });
  });

  it('the server refused the session there: /auth says why here too', async () => {
    const refusing = signedInStore();
    watch(refusing);
    const other = newStore();
    other.dispatch(followStoredToken('t-1'));
    refusingServer();
    await refusing.dispatch(fetchCurrentUser());
    expect(other.dispatch(followStoredToken(readAccessToken()))).toBe(true);
    expect(other.getState().auth).toMatchObject({ isAuth: false, isSessionEnded: true });

    // A sign-in clears the mark: a later sign-out elsewhere is no ended session.
    refusing.dispatch(signIn('t-2'));
    other.dispatch(followStoredToken('t-2'));
    localStorage.removeItem('access_token');
    const plain = newStore();
    plain.dispatch(followStoredToken('t-2'));
    expect(plain.dispatch(followStoredToken(null))).toBe(true);
    expect(plain.getState().auth.isSessionEnded).toBe(false);
  });

  it("another account there: the old account's state gone, the new session taken", () => {
    const store = signedInStore('t-1');
    store.dispatch(fetchCurrentUser.fulfilled(user as never, 'r-1'));
    expect(store.dispatch(followStoredToken('t-2'))).toBe(true);
    expect(store.getState().auth).toMatchObject({ isAuth: true, token: 't-2', userId: null });
    expect(store.getState().user).toEqual({ status: 'idle', data: null });
  });

  it('a sign-in there signs this signed-out tab in; the same token changes nothing', () => {
    const store = newStore();
    expect(store.dispatch(followStoredToken('t-1'))).toBe(false);
    expect(store.getState().auth).toMatchObject({ isAuth: true, token: 't-1' });
    expect(store.dispatch(followStoredToken('t-1'))).toBe(false);
    expect(store.getState().auth.token).toBe('t-1');
  });
});
