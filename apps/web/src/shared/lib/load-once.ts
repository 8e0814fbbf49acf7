import { NO_CONNECTION } from '@portal/contracts/messages';
import { HttpError } from '@/shared/api/http';

/**
 * Code loaded on first use (a dynamic `import()`), loaded once and shared by every caller. A
 * failed load (no connection) is forgotten, so the next call loads again, and rejects as a call
 * that got no answer: `toApiFailure` reads it as «Нет соединения с сервером…», not the browser's
 * English. Every code loaded on first use goes through this, the parts of the screen too
 * (`shared/ui/lazy-part.tsx`).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  let hasFailed = false;
  return () =>
    (loading ??= (hasFailed ? reloadFailedStylesheets().then(load) : load()).catch(() => {
      loading = undefined;
      hasFailed = true;
      throw new HttpError(NO_CONNECTION);
    }));
}

/**
 * The stylesheets that failed to load. An `error` does not bubble, so it is caught on its way
 * down; a failed stylesheet keeps an empty `sheet`, which tells nothing.
 */
const failedStylesheets = new Set<HTMLLinkElement>();
if (typeof document !== 'undefined') {
  document.addEventListener(
    'error',
    (event) => {
      const { target } = event;
      if (target instanceof HTMLLinkElement && target.rel === 'stylesheet') {
        failedStylesheets.add(target);
      }
    },
    true,
  );
}

/**
 * Fetches again the stylesheets that failed to load, and settles once they came (or failed
 * again). Vite's loader asks for a module's stylesheet once: after a failed load it does not ask
 * again, and the module, loaded on the next try, would render unstyled.
 */
function reloadFailedStylesheets(): Promise<unknown> {
  const failed = [...failedStylesheets];
  failedStylesheets.clear();
  return Promise.all(
    failed.map(
      (link) =>
        new Promise((settled) => {
          const again = link.cloneNode() as HTMLLinkElement;
          again.addEventListener('load', settled);
          again.addEventListener('error', settled);
          link.replaceWith(again);
        }),
    ),
  );
}
