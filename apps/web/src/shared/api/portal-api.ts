import { setupListeners } from '@reduxjs/toolkit/query';
import { createApi } from '@reduxjs/toolkit/query/react';
import { apiLoaded } from './api-attach';
import { portalBaseQuery } from './base-query';

/**
 * The one API slice of the app: every read of server data is a query of it, every change a
 * mutation that invalidates the tags of what it changed. It defines no endpoint: each feature
 * injects its own in its `api/` folder (`portalApi.injectEndpoints`), so a page's endpoints come
 * with that page's code. The slice itself reaches the store when the first page that uses it
 * loads (`shared/api/api-attach.ts`); /auth never loads it. docs/decisions/0041-server-data-through-rtk-query.md.
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: portalBaseQuery,
  tagTypes: [
    'User',
    'Devices',
    'Telegram',
    'Passkeys',
    'Checkup',
    'OwnerServices',
    'Catalogue',
    'SecurityLog',
    'PaymentHistory',
    'Receipt',
    'AccountData',
  ],
  // Opening a screen reads its data again (what the server holds may have changed elsewhere);
  // the cached answer shows meanwhile. A read that failed with no connection is read again when
  // the browser comes back online.
  refetchOnMountOrArgChange: true,
  refetchOnReconnect: true,
  endpoints: () => ({}),
});

apiLoaded({
  reducerPath: portalApi.reducerPath,
  reducer: portalApi.reducer as LateApiReducer,
  middleware: portalApi.middleware,
  setupListeners: (dispatch) => setupListeners(dispatch),
  resetAction: () => portalApi.util.resetApiState(),
  userChangedAction: () => portalApi.util.invalidateTags(['User']),
});

type LateApiReducer = Parameters<typeof apiLoaded>[0]['reducer'];
