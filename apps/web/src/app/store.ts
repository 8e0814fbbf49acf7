import type { User } from '@portal/contracts/auth';
import {
  combineSlices,
  configureStore,
  createDynamicMiddleware,
  type Middleware,
} from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth/auth-actions';
import { authSlice } from '@/features/auth/auth-slice';
import { fetchCurrentUser, userMerged, userSlice } from '@/features/auth/user-slice';
import { twoFactorSlice } from '@/features/security/two-factor-slice';
import { walletSlice } from '@/features/wallet/wallet-slice';
import { type LateApi, whenApiLoads } from '@/shared/api/api-attach';

// A feature adds its state by adding its slice to this list (one line). Server data is not here:
// it lives in the API slice (shared/api/portal-api.ts), which joins when its code arrives.
const rootReducer = combineSlices(authSlice, userSlice, walletSlice, twoFactorSlice);

/** Field by field: each is a plain value (a string, a number, a flag or null). */
function isSameUser(before: User, after: User): boolean {
  const fields = Object.keys({ ...before, ...after }) as (keyof User)[];
  return fields.every((field) => before[field] === after[field]);
}

/**
 * The cache follows the signed-in user. Signing out forgets every cached answer: the next account
 * reads its own (another account always comes after a sign-out, `followStoredToken`). A user that
 * changed (read again with other values, or merged after a change) reads again what depends on it,
 * the `User` tag (the checkup, the wallet's history after a top-up); the first read of the user
 * does not, nothing depends on it yet, and nor does a read that brought the same values.
 */
function cacheFollowsUser(api: LateApi): Middleware<object, RootState> {
  return ({ dispatch, getState }) =>
    (next) =>
    (action) => {
      const before = getState().user.data;
      const result = next(action);
      if (signedOut.match(action)) dispatch(api.resetAction());
      else if (fetchCurrentUser.fulfilled.match(action) || userMerged.match(action)) {
        const after = getState().user.data;
        if (before && after && !isSameUser(before, after)) dispatch(api.userChangedAction());
      }
      return result;
    };
}

export function createStore() {
  // The API slice's middleware joins once its code has arrived: until then every action passes by.
  const lateMiddleware = createDynamicMiddleware<RootState>();
  const store = configureStore({
    reducer: rootReducer,
    middleware: (getDefault) => getDefault().concat(lateMiddleware.middleware),
  });
  whenApiLoads((api) => {
    rootReducer.inject(api);
    lateMiddleware.addMiddleware(api.middleware, cacheFollowsUser(api));
    // The reducer's state exists before the first query reads it.
    store.dispatch({ type: `${api.reducerPath}/joined` });
    api.setupListeners(store.dispatch);
  });
  return store;
}

type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = AppStore['dispatch'];
