import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readAccessToken } from '@/shared/api/token-storage';
import type { RequestStatus } from '@/shared/lib/request-status';
import { requiresTwoFactorChanged, signedOut, tokenSet } from './auth-actions';
import { loginUser, registerUser, verifyRegistration } from './auth-thunks';
import { readRequiresTwoFactor } from './two-factor-flag';
import { fetchCurrentUser } from './user-slice';

/** Auth state of spec §3. Being signed in is judged by the presence of a token (spec §6). */
export type AuthState = {
  isAuth: boolean;
  /** The /auth page shows the Войти tab (false: Регистрация). */
  isLogin: boolean;
  token: string | null;
  userId: string | null;
  /** The server asked this login for a second factor: the login form shows the code field. */
  requiresTwoFactor: boolean;
  /** The token check at app start (the current-user call). */
  authStatus: RequestStatus;
  loginStatus: RequestStatus;
  /** Registration and its code confirmation. */
  registerStatus: RequestStatus;
  /** Set after a successful registration: the page shows the code screen for this address. */
  registeredEmail: string | null;
};

function initialAuthState(): AuthState {
  const token = readAccessToken();
  return {
    isAuth: token !== null,
    isLogin: true,
    token,
    userId: null,
    // Signed out, the login form starts without the code field whatever was stored: the server
    // asks again (an abandoned code step must not trap the next person at this browser).
    requiresTwoFactor: token !== null && readRequiresTwoFactor(),
    authStatus: 'idle',
    loginStatus: 'idle',
    registerStatus: 'idle',
    registeredEmail: null,
  };
}

function signedInWith(state: AuthState, token: string, userId: string | null) {
  state.token = token;
  state.isAuth = true;
  state.userId = userId;
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    tabChosen(state, action: PayloadAction<'login' | 'register'>) {
      state.isLogin = action.payload === 'login';
    },
    /** The code screen's Back link: the form the user came from, to fix the address. */
    codeScreenLeft(state) {
      state.registeredEmail = null;
      state.registerStatus = 'idle';
    },
    /** A login of an unconfirmed account (the server mailed a fresh code): the code screen. */
    confirmationRequested(state, action: PayloadAction<string>) {
      state.registeredEmail = action.payload;
      state.registerStatus = 'idle';
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(tokenSet, (state, action) => {
        signedInWith(state, action.payload, state.userId);
      })
      .addCase(requiresTwoFactorChanged, (state, action) => {
        state.requiresTwoFactor = action.payload;
      })
      .addCase(signedOut, () => ({
        ...initialAuthState(),
        token: null,
        isAuth: false,
        requiresTwoFactor: false,
      }))
      .addCase(fetchCurrentUser.pending, (state) => {
        state.authStatus = 'loading';
      })
      .addCase(fetchCurrentUser.fulfilled, (state, action) => {
        state.authStatus = 'success';
        state.userId = action.payload.id;
      })
      .addCase(fetchCurrentUser.rejected, (state) => {
        state.authStatus = 'failed';
      })
      .addCase(loginUser.pending, (state) => {
        state.loginStatus = 'loading';
      })
      .addCase(loginUser.fulfilled, (state, action) => {
        state.loginStatus = 'success';
        if ('token' in action.payload) {
          signedInWith(state, action.payload.token, action.payload.userId);
          state.requiresTwoFactor = action.meta.arg.twoFactorCode !== undefined;
        } else {
          // Spec §4: still signed out; the code field appears.
          state.requiresTwoFactor = true;
        }
      })
      .addCase(loginUser.rejected, (state) => {
        state.loginStatus = 'failed';
      })
      .addCase(registerUser.pending, (state) => {
        state.registerStatus = 'loading';
      })
      .addCase(registerUser.fulfilled, (state, action) => {
        state.registerStatus = 'success';
        state.registeredEmail = action.meta.arg.email;
      })
      .addCase(registerUser.rejected, (state) => {
        state.registerStatus = 'failed';
      })
      .addCase(verifyRegistration.pending, (state) => {
        state.registerStatus = 'loading';
      })
      .addCase(verifyRegistration.fulfilled, (state, action) => {
        state.registerStatus = 'success';
        state.registeredEmail = null;
        signedInWith(state, action.payload.token, action.payload.userId);
      })
      .addCase(verifyRegistration.rejected, (state) => {
        state.registerStatus = 'failed';
      });
  },
  selectors: {
    selectIsAuth: (state) => state.isAuth,
    selectAuth: (state) => state,
  },
});

export const { tabChosen, codeScreenLeft, confirmationRequested } = authSlice.actions;
export const { selectIsAuth, selectAuth } = authSlice.selectors;
