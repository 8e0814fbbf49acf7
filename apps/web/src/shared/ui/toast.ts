import { INFO_TOAST_DURATION_MS } from '@portal/contracts/constants';
import { toast } from 'sonner';

// Spec §9: every toast closes after 3 s (the Toaster's default), the two-factor info toast after 6 s.

export const notify = {
  success: (text: string) => toast.success(text),
  error: (text: string) => toast.error(text),
  /** The long-lived info toast (two-factor code requested). */
  info: (text: string) => toast.info(text, { duration: INFO_TOAST_DURATION_MS }),
};
