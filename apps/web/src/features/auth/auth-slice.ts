import { REQUIRES_TWO_FACTOR_STORAGE_KEY } from '@portal/contracts/constants';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readAccessToken } from '@/shared/api/token-storage';
import type { RequestStatus } from '@/shared/lib/request-status';

/** Auth state of spec §3. Being signed in is judged by the presence of a token (spec §6). */
export type AuthState = {
  isAuth: boolean;
  isLogin: boolean;
  token: string | null;
  userId: string | null;
  requiresTwoFactor: boolean;
  authStatus: RequestStatus;
  loginStatus: RequestStatus;
  registerStatus: RequestStatus;
  registeredEmail: string | null;
};

function readRequiresTwoFactor(): boolean {
  try {
    return localStorage.getItem(REQUIRES_TWO_FACTOR_STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}

function initialAuthState(): AuthState {
  const token = readAccessToken();
  return {
    isAuth: token !== null,
    isLogin: false,
    token,
    userId: null,
    requiresTwoFactor: readRequiresTwoFactor(),
    authStatus: 'idle',
    loginStatus: 'idle',
    registerStatus: 'idle',
    registeredEmail: null,
  };
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** The token is already in storage (see `signIn` in auth-session.ts); mirror it here. */
    tokenSet(state, action: PayloadAction<string>) {
      state.token = action.payload;
      state.isAuth = true;
    },
    /** Local sign-out: storage is cleared by the caller; every auth field goes back to idle. */
    signedOut() {
      return { ...initialAuthState(), token: null, isAuth: false };
    },
  },
  selectors: {
    selectIsAuth: (state) => state.isAuth,
    selectToken: (state) => state.token,
  },
});

export const { tokenSet, signedOut } = authSlice.actions;
export const { selectIsAuth, selectToken } = authSlice.selectors;
