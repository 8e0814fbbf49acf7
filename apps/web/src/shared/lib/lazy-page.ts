import { type ComponentType, createElement, lazy } from 'react';

type PageModule = { default: ComponentType };

/**
 * `React.lazy` for a page that can also be loaded ahead with `preload()`. React.lazy shows its
 * loader for at least one frame even when the code is already there; a page loaded ahead renders
 * at once, so the first paint of an address whose code came with the page (apps/web/
 * route-preloads.ts) is the page itself, one render sooner on a slow phone.
 */
export function lazyPage(load: () => Promise<PageModule>) {
  let loaded: ComponentType | undefined;
  const loadPage = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(loadPage);
  function LazyPage() {
    return createElement(loaded ?? Lazy);
  }
  return Object.assign(LazyPage, {
    preload: async () => {
      await loadPage();
    },
  });
}
