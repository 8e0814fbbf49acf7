import { TOAST_DURATION_MS } from '@portal/contracts/constants';
import { Toaster as SonnerToaster } from 'sonner';
import { useTheme } from './theme';

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
