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
  return () =>
    (loading ??= load().catch(() => {
      loading = undefined;
      throw new HttpError(NO_CONNECTION);
    }));
}
