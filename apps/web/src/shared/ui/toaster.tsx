import { TOAST_DURATION_MS } from '@portal/contracts/constants';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { useTheme } from './theme';
import { hasRaisedToast, loadSonner, subscribeToFirstToast } from './toast';

const SonnerToaster = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

/** sonner's Toaster, loaded with the first toast (see toast.ts). */
export function Toaster() {
  const [theme] = useTheme();
  const isNeeded = useSyncExternalStore(subscribeToFirstToast, hasRaisedToast, () => false);
  if (!isNeeded) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster
        theme={theme}
        position="top-right"
        duration={TOAST_DURATION_MS}
        richColors
        closeButton
      />
    </Suspense>
  );
}
