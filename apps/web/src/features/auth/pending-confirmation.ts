import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';

/**
 * A registration code on its way: the code step's state, kept in sessionStorage so that the tab
 * finds it again after Back or a reload (a phone drops the tab while the user reads the mail), for
 * as long as the code lives. Nothing secret is kept: no password, no code.
 */
export type PendingConfirmation = {
  /** Where the code went; verify-registration takes it. */
  email: string;
  /** The tab a new code is asked from again once the page forgot how (after a reload). */
  form: 'login' | 'register';
  /** When another code may be asked for (ms since the epoch). */
  resendAt: number;
  /** When the code dies and the step is forgotten (ms since the epoch). */
  expiresAt: number;
};

const STORAGE_KEY = 'pendingConfirmation';
const CODE_LIFETIME_MS = ONE_TIME_CODE_TTL_MINUTES * 60_000;

/**
 * The pending confirmation for `email` when a code was just mailed or is already on its way
 * (`resendAfterSeconds` from now). A code already known for this address keeps its own death; a
 * new one lives the code's lifetime.
 */
export function pendingConfirmationOf(
  email: string,
  form: PendingConfirmation['form'],
  resendAfterSeconds: number,
  { isNewCode }: { isNewCode: boolean },
  now = Date.now(),
): PendingConfirmation {
  const known = readPendingConfirmation(now);
  const expiresAt = !isNewCode && known?.email === email ? known.expiresAt : now + CODE_LIFETIME_MS;
  return { email, form, resendAt: now + resendAfterSeconds * 1000, expiresAt };
}

/** The stored one, unless its code is dead by now. Storage may be disabled: never throws. */
export function readPendingConfirmation(now = Date.now()): PendingConfirmation | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (!isPendingConfirmation(value) || value.expiresAt <= now) return null;
    return value;
  } catch {
    return null;
  }
}

export function writePendingConfirmation(value: PendingConfirmation | null): void {
  try {
    if (value) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Without storage the step lives in the store only, until a reload.
  }
}

function isPendingConfirmation(value: unknown): value is PendingConfirmation {
  if (typeof value !== 'object' || value === null) return false;
  const { email, form, resendAt, expiresAt } = value as Record<string, unknown>;
  return (
    typeof email === 'string' &&
    (form === 'login' || form === 'register') &&
    typeof resendAt === 'number' &&
    typeof expiresAt === 'number'
  );
}
