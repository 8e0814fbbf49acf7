import type { Middleware, Reducer, ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';

/**
 * What the store takes of the API slice when its code arrives: RTK Query lives in a chunk only
 * the pages that read server data load, so /auth's first load carries none of it (its budget:
 * apps/web/README.md, "Budgets"). This module is the meeting point, and imports nothing of
 * RTK Query: `shared/api/portal-api.ts` announces itself here when it is evaluated, and each store
 * (`app/store.ts`) takes its reducer, its middleware and its listeners (refetch on reconnect) then,
 * or at once when it was already loaded.
 */
export type LateApi = {
  reducerPath: string;
  reducer: Reducer;
  middleware: Middleware;
  /** `setupListeners`: refetch on coming back online and on the window's focus. */
  setupListeners: (dispatch: ThunkDispatch<unknown, unknown, UnknownAction>) => () => void;
  /** The action that forgets every cached answer (on signing out). */
  resetAction: () => UnknownAction;
  /** The action that reads again what depends on the signed-in user (the `User` tag). */
  userChangedAction: () => UnknownAction;
};

let loaded: LateApi | undefined;
const waiting = new Set<(api: LateApi) => void>();

/** `take` runs once the API slice is loaded: now, if it already is. */
export function whenApiLoads(take: (api: LateApi) => void): void {
  if (loaded) take(loaded);
  else waiting.add(take);
}

/** Called once, by the API slice's module. */
export function apiLoaded(api: LateApi): void {
  loaded = api;
  for (const take of waiting) take(api);
  waiting.clear();
}
