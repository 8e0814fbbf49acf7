import { toast } from 'sonner';

/** Spec §9: every toast closes after 3 s, except the two-factor info toast (6 s). */
export const TOAST_DURATION_MS = 3000;
export const INFO_TOAST_DURATION_MS = 6000;

export const notify = {
  success: (text: string) => toast.success(text),
  error: (text: string) => toast.error(text),
  /** The long-lived info toast (two-factor code requested). */
  info: (text: string) => toast.info(text, { duration: INFO_TOAST_DURATION_MS }),
};
