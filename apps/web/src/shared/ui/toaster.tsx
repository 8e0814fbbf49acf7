import { Toaster as SonnerToaster } from 'sonner';
import { useTheme } from './theme';
import { TOAST_DURATION_MS } from './toast';

export function Toaster() {
  const [theme] = useTheme();
  return (
    <SonnerToaster
      theme={theme}
      position="top-right"
      duration={TOAST_DURATION_MS}
      richColors
      closeButton
    />
  );
}
