import { ONE_TIME_CODE_TTL_MINUTES } from '@portal/contracts/constants';
import type { ResetPasswordState } from './reset-password-flow';

/**
 * The reset in progress, kept in sessionStorage so that the tab finds its code step again after a
 * reload or Back (a phone drops the tab while the user reads the mail), for as long as the code
 * lives, as the registration's code step does (features/auth/pending-confirmation.ts). Nothing
 * secret: the address and the countdown, no code, no password.
 */
type StoredReset = ResetPasswordState & { expiresAt: number };

const STORAGE_KEY = 'pendingReset';
const CODE_LIFETIME_MS = ONE_TIME_CODE_TTL_MINUTES * 60_000;

/** The stored reset, unless its code is dead by now. Storage may be disabled: never throws. */
export function readStoredReset(now = Date.now()): ResetPasswordState | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as StoredReset | null;
    if (!value || typeof value.email !== 'string' || !(value.expiresAt > now)) return null;
    const { expiresAt: _expiresAt, ...state } = value;
    return state;
  } catch {
    return null;
  }
}

/**
 * Keeps `state` while a code is on its way (its first letter sets when it dies); forgets it once
 * the password is reset or no letter was sent.
 */
export function storeReset(state: ResetPasswordState, now = Date.now()): void {
  try {
    if (state.step === 'done' || state.resendAt === 0) {
      sessionStorage.removeItem(STORAGE_KEY);
      return;
    }
    const known = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? 'null') as StoredReset | null;
    const expiresAt =
      known?.email === state.email && known.expiresAt > now
        ? known.expiresAt
        : now + CODE_LIFETIME_MS;
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ ...state, expiresAt }));
  } catch {
    // Without storage the step lives as long as the page.
  }
}
