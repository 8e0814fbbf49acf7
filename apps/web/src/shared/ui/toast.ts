import { INFO_TOAST_DURATION_MS } from '@portal/contracts/constants';

// Every toast closes after 3 s (the Toaster's default), the two-factor info toast after 6 s.

type Sonner = typeof import('sonner');

let sonner: Promise<Sonner> | undefined;
const firstToastListeners = new Set<() => void>();

/**
 * sonner loads with the first toast, not with the page, so that /auth stays under its JavaScript
 * budget (apps/web/README.md, "Budgets"). Its Toaster mounts then (see toaster.tsx) and replays
 * the toasts raised before it subscribed.
 */
export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import('sonner');
    for (const listener of firstToastListeners) listener();
  }
  return sonner;
}

/** Whether a toast has been raised yet (the Toaster renders nothing before). */
export const hasRaisedToast = () => sonner !== undefined;

export function subscribeToFirstToast(listener: () => void): () => void {
  firstToastListeners.add(listener);
  return () => firstToastListeners.delete(listener);
}

function show(send: (toast: Sonner['toast']) => void) {
  void loadSonner().then(({ toast }) => send(toast));
}

export const notify = {
  success: (text: string) => show((toast) => toast.success(text)),
  error: (text: string) => show((toast) => toast.error(text)),
  /** The long-lived info toast (two-factor code requested). */
  info: (text: string) => show((toast) => toast.info(text, { duration: INFO_TOAST_DURATION_MS })),
};
