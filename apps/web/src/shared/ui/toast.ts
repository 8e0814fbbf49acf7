import { INFO_TOAST_DURATION_MS } from '@portal/contracts/constants';

// Every toast closes after 3 s (the Toaster's default), the two-factor info toast after 6 s.

type Sonner = typeof import('sonner');
type Send = (toast: Sonner['toast']) => void;

let sonner: Promise<Sonner> | undefined;
const listeners = new Set<() => void>();
/** Toasts raised while sonner could not load (no connection): the Toaster shows them plainly. */
let unsent: { id: number; text: string }[] = [];
let nextId = 0;

function changed() {
  for (const listener of listeners) listener();
}

/**
 * sonner loads with the first toast, not with the page, so that /auth stays under its JavaScript
 * budget (apps/web/README.md, "Budgets"). Its Toaster mounts then (see toaster.tsx) and replays
 * the toasts raised before it subscribed. A load that fails is forgotten, so the next toast (or
 * the connection coming back) tries again: one dropped connection never ends the toasts.
 */
export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    const loading = import('sonner');
    sonner = loading;
    loading.then(changed, () => {
      if (sonner === loading) sonner = undefined;
      changed();
    });
    changed();
  }
  return sonner;
}

/** Whether a toast has been raised yet (the Toaster renders nothing before). */
export const hasRaisedToast = () => sonner !== undefined || unsent.length > 0;

/** The toasts sonner could not show, newest last. */
export const unsentToasts = () => unsent;

export function dismissUnsentToast(id: number): void {
  unsent = unsent.filter((toast) => toast.id !== id);
  changed();
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(text: string, send: Send) {
  loadSonner().then(
    ({ toast }) => send(toast),
    () => {
      unsent = [...unsent, { id: nextId++, text }];
      changed();
    },
  );
}

export const notify = {
  success: (text: string) => show(text, (toast) => toast.success(text)),
  error: (text: string) => show(text, (toast) => toast.error(text)),
  /** The long-lived info toast (two-factor code requested). */
  info: (text: string) =>
    show(text, (toast) => toast.info(text, { duration: INFO_TOAST_DURATION_MS })),
};
