import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { memoryStorage } from '@test-support/memory-storage';
import { testUser } from '@test-support/test-user';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signIn } from './auth-session';
import { authSlice, secondFactorKindChosen, selectLoginStep, tabChosen } from './auth-slice';
import { loginUser, logoutUser, registerUser, verifyRegistration } from './auth-thunks';
import { leaveCodeStep, openCodeStep } from './code-step-actions';
import { fetchCurrentUser, userSlice } from './user-slice';

// The auth state driven through the real thunks and http client; the server is a
// function of the request, so nothing touches the network.

type Answer = { status: number; data: unknown; headers?: Record<string, string> };
let answers: Record<string, Answer>;
let calls: { url: string; body: unknown; authorization: string | null }[];

/** Stands in for `fetch`: answers each path from `answers`, 404 for any other. */
async function fakeServer(url: string, init: RequestInit = {}): Promise<Response> {
  calls.push({
    url,
    body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    authorization: new Headers(init.headers).get('Authorization'),
  });
  const answer = answers[url] ?? { status: 404, data: { message: 'Не найдено' } };
  return new Response(JSON.stringify(answer.data), {
    status: answer.status,
    headers: answer.headers,
  });
}

const newStore = () => configureStore({ reducer: combineSlices(authSlice, userSlice) });

const user = testUser;

const loginBody = { usernameOrEmail: 'player', password: 'Secret123' };
/** A code step that dies in ten minutes. */
const pending = {
  email: 'new@example.com',
  form: 'register' as const,
  resendAt: Date.now() + 60_000,
  expiresAt: Date.now() + 600_000,
};
const AUTH = '/authms/api/Auth';

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('sessionStorage', memoryStorage());
  answers = {};
  calls = [];
  vi.stubGlobal('fetch', fakeServer);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('login', () => {
  it('stores the token under access_token and signs in', async () => {
    answers[`${AUTH}/login`] = { status: 200, data: { token: 't-1', userId: 'u-1' } };
    const store = newStore();
    const pending = store.dispatch(loginUser(loginBody));
    expect(store.getState().auth.loginStatus).toBe('loading');
    await pending;
    expect(store.getState().auth).toMatchObject({
      isAuth: true,
      token: 't-1',
      userId: 'u-1',
      loginStatus: 'success',
      requiresTwoFactor: false,
    });
    expect(localStorage.getItem('access_token')).toBe('t-1');
  });

  it('keeps the user signed out when the server asks for a second factor', async () => {
    answers[`${AUTH}/login`] = { status: 200, data: { requiresTwoFactor: true } };
    const store = newStore();
    await store.dispatch(loginUser(loginBody));
    expect(store.getState().auth).toMatchObject({
      isAuth: false,
      token: null,
      requiresTwoFactor: true,
    });
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('requiresTwoFactor')).toBe('true');

    answers[`${AUTH}/login`] = { status: 200, data: { token: 't-2', userId: 'u-1' } };
    await store.dispatch(loginUser({ ...loginBody, twoFactorCode: '123456' }));
    expect(calls.at(-1)?.body).toMatchObject({ twoFactorCode: '123456' });
    expect(store.getState().auth).toMatchObject({ isAuth: true, token: 't-2' });
  });

  it('asks for the credentials, then the second factor the user chose', async () => {
    answers[`${AUTH}/login`] = { status: 200, data: { requiresTwoFactor: true } };
    const store = newStore();
    const step = () => selectLoginStep(store.getState());
    expect(step()).toBe('credentials');
    await store.dispatch(loginUser(loginBody));
    expect(step()).toBe('authenticator');
    store.dispatch(secondFactorKindChosen('recovery'));
    expect(step()).toBe('recovery');
    // Another tab and back: the code field starts with the authenticator again.
    store.dispatch(tabChosen('register'));
    store.dispatch(tabChosen('login'));
    expect(step()).toBe('authenticator');
  });

  it('fails with the server message and stores nothing', async () => {
    answers[`${AUTH}/login`] = { status: 401, data: { message: 'Неверный логин или пароль' } };
    const store = newStore();
    const result = await store.dispatch(loginUser(loginBody));
    expect(loginUser.rejected.match(result) && result.payload?.text).toBe(
      'Неверный логин или пароль',
    );
    expect(store.getState().auth).toMatchObject({ isAuth: false, loginStatus: 'failed' });
    expect(localStorage.getItem('access_token')).toBeNull();
  });
});

describe('registration', () => {
  const request = {
    email: 'new@example.com',
    password: 'Secret123',
    username: 'newbie',
    firstName: 'Иван',
    lastName: '',
  };

  it('moves to the code screen, and the confirmed code signs in', async () => {
    answers[`${AUTH}/register`] = { status: 200, data: { message: 'Код отправлен' } };
    answers[`${AUTH}/verify-registration`] = {
      status: 200,
      data: { message: 'Готово', userId: 'u-9', token: 't-9' },
    };
    const store = newStore();
    await store.dispatch(registerUser(request));
    expect(store.getState().auth).toMatchObject({ registerStatus: 'success', isAuth: false });

    await store.dispatch(verifyRegistration({ email: 'new@example.com', code: '123456' }));
    expect(store.getState().auth).toMatchObject({
      isAuth: true,
      token: 't-9',
      userId: 'u-9',
      confirmation: null,
    });
    expect(localStorage.getItem('access_token')).toBe('t-9');
  });

  it('keeps the code screen after a wrong code, and Back leaves it', async () => {
    answers[`${AUTH}/register`] = { status: 200, data: { message: 'Код отправлен' } };
    answers[`${AUTH}/verify-registration`] = {
      status: 400,
      data: { message: 'Неверный код', errors: { code: ['Неверный код'] } },
    };
    const store = newStore();
    await store.dispatch(registerUser(request));
    store.dispatch(openCodeStep(pending));
    const result = await store.dispatch(
      verifyRegistration({ email: 'new@example.com', code: '000000' }),
    );
    expect(verifyRegistration.rejected.match(result) && result.payload?.errors).toEqual({
      code: ['Неверный код'],
    });
    expect(store.getState().auth).toMatchObject({
      registerStatus: 'failed',
      confirmation: pending,
      isAuth: false,
    });
    // A reload finds it in sessionStorage.
    expect(newStore().getState().auth.confirmation).toEqual(pending);
    store.dispatch(leaveCodeStep());
    expect(store.getState().auth.confirmation).toBeNull();
    expect(newStore().getState().auth.confirmation).toBeNull();
  });

  it("carries a 429's Retry-After in seconds", async () => {
    answers[`${AUTH}/register`] = {
      status: 429,
      data: { message: 'Повторно отправить код можно через 42 с' },
      headers: { 'retry-after': '42' },
    };
    const result = await newStore().dispatch(registerUser(request));
    expect(registerUser.rejected.match(result) && result.payload?.retryAfterSeconds).toBe(42);
  });
});

describe('app start and logout', () => {
  it('checks a stored token by fetching the user', async () => {
    localStorage.setItem('access_token', 't-1');
    answers[`${AUTH}/user`] = { status: 200, data: user };
    const store = newStore();
    expect(store.getState().auth.isAuth).toBe(true);
    await store.dispatch(fetchCurrentUser());
    expect(calls.at(-1)?.authorization).toBe('Bearer t-1');
    expect(store.getState().auth).toMatchObject({ authStatus: 'success', userId: 'u-1' });
    expect(store.getState().user.data).toEqual(user);
  });

  it('keeps the user on screen while it is read again, and when that fails', async () => {
    localStorage.setItem('access_token', 't-1');
    answers[`${AUTH}/user`] = { status: 200, data: user };
    const store = newStore();
    await store.dispatch(fetchCurrentUser());

    answers[`${AUTH}/user`] = { status: 200, data: { ...user, telegramId: '42' } };
    const reload = store.dispatch(fetchCurrentUser());
    expect(store.getState().user).toEqual({ status: 'loading', data: user });
    await reload;
    expect(store.getState().user).toEqual({
      status: 'success',
      data: { ...user, telegramId: '42' },
    });

    answers[`${AUTH}/user`] = { status: 500, data: { message: 'Внутренняя ошибка сервера' } };
    await store.dispatch(fetchCurrentUser());
    expect(store.getState().user).toMatchObject({ status: 'failed', data: { telegramId: '42' } });
  });

  it('lets the guard ask again when a first load is given up', async () => {
    localStorage.setItem('access_token', 't-1');
    answers[`${AUTH}/user`] = { status: 200, data: user };
    const store = newStore();
    const load = store.dispatch(fetchCurrentUser());
    load.abort();
    await load;
    expect(store.getState().user).toEqual({ status: 'idle', data: null });
  });

  it('removes a token the server refuses, silently', async () => {
    localStorage.setItem('access_token', 'dead');
    answers[`${AUTH}/user`] = { status: 401, data: { message: 'Недействительный токен' } };
    const store = newStore();
    await store.dispatch(fetchCurrentUser());
    expect(store.getState().auth).toMatchObject({ isAuth: false, token: null });
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('logs out on the server, removes the token and resets the state', async () => {
    answers[`${AUTH}/logout`] = { status: 200, data: { message: 'Вы вышли из аккаунта' } };
    const store = newStore();
    store.dispatch(signIn('t-1'));
    localStorage.setItem('requiresTwoFactor', 'true');
    await store.dispatch(logoutUser());
    expect(calls.at(-1)).toMatchObject({ url: `${AUTH}/logout`, authorization: 'Bearer t-1' });
    expect(store.getState().auth).toMatchObject({
      isAuth: false,
      token: null,
      requiresTwoFactor: false,
    });
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('requiresTwoFactor')).toBeNull();
  });

  it('signs out locally even when the logout call fails', async () => {
    answers[`${AUTH}/logout`] = { status: 500, data: { message: 'Внутренняя ошибка сервера' } };
    const store = newStore();
    store.dispatch(signIn('t-1'));
    await store.dispatch(logoutUser());
    expect(store.getState().auth.isAuth).toBe(false);
    expect(localStorage.getItem('access_token')).toBeNull();
  });
});
