import { LOAD_FAILED, RETRY } from '@portal/contracts/messages';
import { type ComponentType, createElement, useEffect, useState } from 'react';
import { Button } from './button';
import styles from './lazy-page.module.css';
import { PageLoader } from './page-loader';

type PageModule = { default: ComponentType };

/**
 * A page whose code loads when it is first shown: the loader meanwhile, and, when the code cannot
 * be loaded (no connection), «Нет соединения» with «Повторить» in its place — never a blank area.
 * «Повторить», the browser coming back online or the next visit of the address tries again,
 * without a reload. `preload()` loads it ahead: a page loaded ahead renders at once, so the first
 * paint of an address whose code came with index.html (apps/web/route-preloads.ts) is the page.
 */
export function lazyPage(load: () => Promise<PageModule>) {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const loadPage = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };

  function LazyPage() {
    const [attempt, setAttempt] = useState(0);
    const [hasFailed, setHasFailed] = useState(false);
    const [, setIsLoaded] = useState(false);

    // biome-ignore lint/correctness/useExhaustiveDependencies: each attempt loads again
    useEffect(() => {
      if (loaded) return;
      let isCurrent = true;
      loadPage().then(
        () => isCurrent && setIsLoaded(true),
        () => isCurrent && setHasFailed(true),
      );
      return () => {
        isCurrent = false;
      };
    }, [attempt]);

    const retry = () => {
      setHasFailed(false);
      setAttempt((count) => count + 1);
    };
    useEffect(() => {
      if (!hasFailed) return;
      window.addEventListener('online', retry);
      return () => window.removeEventListener('online', retry);
    });

    if (loaded) return createElement(loaded);
    // The load starts with the render, as React.lazy's does, not a commit later in the effect
    // (which only follows it): one promise however often this runs.
    if (!hasFailed) loadPage().catch(() => {});
    if (hasFailed) {
      return (
        <div className={styles.failed} role="alert">
          <p className={styles.title}>{LOAD_FAILED}</p>
          <Button onClick={retry}>{RETRY}</Button>
        </div>
      );
    }
    return <PageLoader />;
  }

  return Object.assign(LazyPage, { preload: loadPage });
}
