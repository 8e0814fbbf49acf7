import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readAccessToken } from '@/shared/api/token-storage';
import type { RequestStatus } from '@/shared/lib/request-status';
import { requiresTwoFactorChanged, sessionEndNoticed, signedOut, tokenSet } from './auth-actions';
import { loginUser, registerUser, signInWithPasskey, verifyRegistration } from './auth-thunks';
import { type PendingConfirmation, readPendingConfirmation } from './pending-confirmation';
import { readRequiresTwoFactor } from './two-factor-flag';
import { fetchCurrentUser } from './user-slice';

/** Which second factor the user types: the authenticator's code or a recovery code. */
export type SecondFactorKind = 'authenticator' | 'recovery';

/** What the login form asks for: the credentials, then the second factor the user chose. */
export type LoginStep = 'credentials' | SecondFactorKind;

/**
 * The sign-in state and the steps of the /auth page. Being signed in is judged by the presence of
 * a token.
 */
export type AuthState = {
  isAuth: boolean;
  /** The /auth page shows the Войти tab (false: Регистрация). */
  isLogin: boolean;
  token: string | null;
  userId: string | null;
  /** The server asked this login for a second factor: the login form shows the code field. */
  requiresTwoFactor: boolean;
  secondFactorKind: SecondFactorKind;
  /** The token check at app start (the current-user call). */
  authStatus: RequestStatus;
  loginStatus: RequestStatus;
  /** Registration and its code confirmation. */
  registerStatus: RequestStatus;
  /**
   * A registration code on its way (registered, or an unconfirmed account signed in): the page
   * shows the code screen. Kept in sessionStorage too, so Back and a reload find it again.
   */
  confirmation: PendingConfirmation | null;
  /** The server ended the session: /auth says so (kept through the sign-out, until a sign-in). */
  isSessionEnded: boolean;
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
    secondFactorKind: 'authenticator',
    authStatus: 'idle',
    loginStatus: 'idle',
    registerStatus: 'idle',
    confirmation: readPendingConfirmation(),
    isSessionEnded: false,
  };
}

function signedInWith(state: AuthState, token: string, userId: string | null) {
  state.token = token;
  state.isAuth = true;
  state.userId = userId;
  state.isSessionEnded = false;
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    tabChosen(state, action: PayloadAction<'login' | 'register'>) {
      state.isLogin = action.payload === 'login';
      state.secondFactorKind = 'authenticator';
    },
    /** 'Использовать резервный код' and back. */
    secondFactorKindChosen(state, action: PayloadAction<SecondFactorKind>) {
      state.secondFactorKind = action.payload;
    },
    /** A code was mailed, or one is on its way already: the code screen. */
    codeStepOpened(state, action: PayloadAction<PendingConfirmation>) {
      state.confirmation = action.payload;
      state.registerStatus = 'idle';
    },
    /** The code screen's Back link: the form the user came from, to fix the address. */
    codeScreenLeft(state) {
      state.confirmation = null;
      state.registerStatus = 'idle';
    },
    /** Another code was mailed (or the server named the wait): when the next may be asked for. */
    codeResendDelayed(state, action: PayloadAction<number>) {
      if (state.confirmation) state.confirmation.resendAt = action.payload;
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
      .addCase(signedOut, (state) => ({
        ...initialAuthState(),
        token: null,
        isAuth: false,
        requiresTwoFactor: false,
        isSessionEnded: state.isSessionEnded,
      }))
      .addCase(sessionEndNoticed, (state) => {
        state.isSessionEnded = true;
      })
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
        } else if (!action.payload.passkeyOptions) {
          // Still signed out; the code field appears. (A passkey step opens the browser's dialog.)
          state.requiresTwoFactor = true;
        }
      })
      .addCase(signInWithPasskey.fulfilled, (state, action) => {
        signedInWith(state, action.payload.token, action.payload.userId);
      })
      .addCase(loginUser.rejected, (state) => {
        state.loginStatus = 'failed';
      })
      .addCase(registerUser.pending, (state) => {
        state.registerStatus = 'loading';
      })
      .addCase(registerUser.fulfilled, (state) => {
        state.registerStatus = 'success';
      })
      .addCase(registerUser.rejected, (state) => {
        state.registerStatus = 'failed';
      })
      .addCase(verifyRegistration.pending, (state) => {
        state.registerStatus = 'loading';
      })
      .addCase(verifyRegistration.fulfilled, (state, action) => {
        state.registerStatus = 'success';
        state.confirmation = null;
        signedInWith(state, action.payload.token, action.payload.userId);
      })
      .addCase(verifyRegistration.rejected, (state) => {
        state.registerStatus = 'failed';
      });
  },
  selectors: {
    selectIsAuth: (state) => state.isAuth,
    selectAuth: (state) => state,
    selectLoginStep: (state): LoginStep =>
      state.requiresTwoFactor ? state.secondFactorKind : 'credentials',
  },
});

export const {
  tabChosen,
  secondFactorKindChosen,
  codeStepOpened,
  codeScreenLeft,
  codeResendDelayed,
} = authSlice.actions;
export const { selectIsAuth, selectAuth, selectLoginStep } = authSlice.selectors;
