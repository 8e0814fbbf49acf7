import { TOAST_DURATION_MS } from '@portal/contracts/constants';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTheme } from './theme';
import {
  dismissUnsentToast,
  hasRaisedToast,
  loadSonner,
  subscribeToToasts,
  unsentToasts,
} from './toast';
import styles from './toaster.module.css';

type SonnerToaster = typeof import('sonner')['Toaster'];

/** Where the toasts start: below the frame's header (32 px of padding and a 40 px button). */
const TOASTS_TOP_PX = 84;

/**
 * sonner's Toaster, loaded with the first toast (see toast.ts). While sonner cannot load (no
 * connection), the toasts raised meanwhile show as plain notices, and sonner is tried again when
 * the browser is back online.
 */
export function Toaster() {
  const [theme] = useTheme();
  const isNeeded = useSyncExternalStore(subscribeToToasts, hasRaisedToast, () => false);
  const unsent = useSyncExternalStore(subscribeToToasts, unsentToasts, unsentToasts);
  const [library, setLibrary] = useState<{ Toaster: SonnerToaster } | null>(null);

  useEffect(() => {
    if (!isNeeded || library) return;
    const load = () => loadSonner().then(setLibrary, () => {});
    void load();
    window.addEventListener('online', load);
    return () => window.removeEventListener('online', load);
  }, [isNeeded, library]);

  if (!isNeeded) return null;
  return (
    <>
      {library && (
        <library.Toaster
          theme={theme}
          position="top-right"
          // Below the header's controls (the theme button, the mobile header), never over them.
          offset={{ top: TOASTS_TOP_PX, right: 24 }}
          mobileOffset={{ top: TOASTS_TOP_PX, right: 16, left: 16 }}
          duration={TOAST_DURATION_MS}
          richColors
          closeButton
        />
      )}
      {unsent.length > 0 && (
        <ol className={styles.unsent}>
          {unsent.map((toast) => (
            <UnsentToast key={toast.id} id={toast.id} text={toast.text} />
          ))}
        </ol>
      )}
    </>
  );
}

function UnsentToast({ id, text }: { id: number; text: string }) {
  useEffect(() => {
    const timer = setTimeout(() => dismissUnsentToast(id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [id]);
  return (
    <li className={styles.toast} role="status">
      {text}
    </li>
  );
}
