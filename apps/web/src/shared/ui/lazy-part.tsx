import { type ComponentProps, type ComponentType, createElement, useEffect, useState } from 'react';
import { loadOnce } from '@/shared/lib/load-once';
import { LoadFailed } from './load-failed';
import { PageLoader } from './page-loader';

/**
 * A part of the screen whose code loads when it is first shown — a page (`kind` 'page'), or a part
 * of one (the Регистрация tab, the code screen): the loader meanwhile, and, when the code cannot be
 * loaded (no connection), «Нет соединения» with «Повторить» in its place — never a blank area,
 * nor an error no boundary catches, as React.lazy's. «Повторить», the browser coming back online
 * or the next showing tries again, without a reload. `load` is React.lazy's: a module whose
 * default export is the component. `preload()` loads it ahead: a part loaded ahead renders at
 * once, so the first paint of an address whose code came with index.html
 * (apps/web/route-preloads.ts) is the page.
 */
export function lazyPart<
  // biome-ignore lint/suspicious/noExplicitAny: React.lazy's bound: any component, its props taken from it.
  Part extends ComponentType<any>,
>(load: () => Promise<{ default: Part }>, kind?: 'page') {
  let loaded: Part | undefined;
  const preload = loadOnce(() =>
    load().then((module) => {
      loaded = module.default;
    }),
  );

  function LazyPart(props: ComponentProps<Part>) {
    const [hasFailed, setHasFailed] = useState(false);
    const [, setIsLoaded] = useState(false);

    // Each «Повторить» (hasFailed back to false) loads again. A load that ended between the
    // render (which showed the loader) and this effect still sets the state: without it, nothing
    // would render the part.
    useEffect(() => {
      if (hasFailed) return;
      let isCurrent = true;
      preload().then(
        () => isCurrent && setIsLoaded(true),
        () => isCurrent && setHasFailed(true),
      );
      return () => {
        isCurrent = false;
      };
    }, [hasFailed]);

    const retry = () => setHasFailed(false);
    useEffect(() => {
      if (!hasFailed) return;
      window.addEventListener('online', retry);
      return () => window.removeEventListener('online', retry);
    });

    if (loaded) return createElement(loaded, props);
    if (hasFailed) {
      return <LoadFailed onRetry={retry} isPage={kind === 'page'} />;
    }
    // The load starts with the render, as React.lazy's does, not a commit later in the effect
    // (which only follows it): one promise however often this runs.
    preload().catch(() => {});
    return <PageLoader />;
  }

  return Object.assign(LazyPart, { preload });
}
