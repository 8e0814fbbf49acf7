import { combineSlices, configureStore, type Middleware } from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth/auth-actions';
import { authSlice } from '@/features/auth/auth-slice';
import { fetchCurrentUser, userMerged, userSlice } from '@/features/auth/user-slice';
import { twoFactorSlice } from '@/features/security/two-factor-slice';
import { walletSlice } from '@/features/wallet/wallet-slice';
import { type LateApi, whenApiLoads } from '@/shared/api/api-attach';

// A feature adds its state by adding its slice to this list (one line). Server data is not here:
// it lives in the API slice (shared/api/portal-api.ts), which joins when its code arrives.
const rootReducer = combineSlices(authSlice, userSlice, walletSlice, twoFactorSlice);

export function createStore() {
  // The API slice's middleware, once its code has arrived: until then every action passes by.
  // Signing out forgets every cached answer: the next account reads its own. A user that changed
  // (read again with other values, or merged after a change) reads again what depends on it, the
  // `User` tag (the checkup, the wallet's history after a top-up); the first read of the user does
  // not, nothing depends on it yet.
  let attach: ((api: LateApi) => void) | undefined;
  let apiHandle: ((action: unknown) => unknown) | undefined;
  let follow: ((action: unknown, userBefore: unknown) => void) | undefined;
  const lateApi: Middleware<object, RootState> = (middlewareApi) => (next) => {
    attach = (api) => {
      apiHandle = api.middleware(middlewareApi)(next);
      follow = (action, userBefore) => {
        if (signedOut.match(action)) middlewareApi.dispatch(api.resetAction());
        else if (fetchCurrentUser.fulfilled.match(action) || userMerged.match(action)) {
          const userAfter = middlewareApi.getState().user.data;
          if (userBefore && JSON.stringify(userBefore) !== JSON.stringify(userAfter)) {
            middlewareApi.dispatch(api.userChangedAction());
          }
        }
      };
    };
    return (action) => {
      const userBefore = follow && middlewareApi.getState().user.data;
      const result = (apiHandle ?? next)(action);
      follow?.(action, userBefore);
      return result;
    };
  };
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().concat(lateApi),
  });
  whenApiLoads((api) => {
    rootReducer.inject(api);
    attach?.(api);
    // The reducer's state exists before the first query reads it.
    store.dispatch({ type: `${api.reducerPath}/joined` });
    api.setupListeners(store.dispatch);
  });
  return store;
}

type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = AppStore['dispatch'];
