import {
  RESEND_COUNTDOWN_FIRST_SECONDS,
  RESEND_COUNTDOWN_NEXT_SECONDS,
} from '@portal/contracts/constants';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The steps of /reset-password: the address → the mailed code with the new password → done. A
 * reducer of the slice kind, run by the page's `useReducer`: the flow lives as long as the page.
 */
export type ResetPasswordStep = 'email' | 'code' | 'done';

export type ResetPasswordState = {
  step: ResetPasswordStep;
  /** Where the code went; offered again when the user goes back to the first step. */
  email: string;
  /**
   * When another letter may be asked for (epoch ms; 0: none sent). Until then the server sends
   * none, so going on again with the same address reopens the code step without asking it.
   */
  resendAt: number;
  /** The code step was reopened for a letter already sent: it says so, not "sent" again. */
  isReopened: boolean;
};

/**
 * How another page opens the code step directly (the router's `state` of /reset-password): a code
 * was already mailed to `email` («Это был не я»), another may be asked after the seconds given.
 */
export type ResetPasswordEntry = { email: string; resendAfterSeconds: number };

/** The code step of a code mailed elsewhere at `now`, or the first step without one. */
export function resetPasswordStateFor(entry: unknown, now: number): ResetPasswordState {
  if (!isEntry(entry)) return initialResetPasswordState;
  return {
    step: 'code',
    email: entry.email,
    resendAt: now + entry.resendAfterSeconds * 1000,
    isReopened: false,
  };
}

function isEntry(value: unknown): value is ResetPasswordEntry {
  const entry = value as Partial<ResetPasswordEntry> | null;
  return typeof entry?.email === 'string' && typeof entry.resendAfterSeconds === 'number';
}

export const initialResetPasswordState: ResetPasswordState = {
  step: 'email',
  email: '',
  resendAt: 0,
  isReopened: false,
};

export const resetPasswordFlow = createSlice({
  name: 'resetPassword',
  initialState: initialResetPasswordState,
  reducers: {
    /** Step 1 sent a letter at `at` (epoch ms). */
    codeSent(state, action: PayloadAction<{ email: string; at: number }>) {
      state.step = 'code';
      state.email = action.payload.email;
      state.resendAt = action.payload.at + RESEND_COUNTDOWN_FIRST_SECONDS * 1000;
      state.isReopened = false;
    },
    /** Step 1 went on with the address of a letter still inside its countdown. */
    codeReopened(state) {
      state.step = 'code';
      state.isReopened = true;
    },
    /** Step 2 sent another letter at `at`. */
    codeResent(state, action: PayloadAction<{ at: number }>) {
      state.resendAt = action.payload.at + RESEND_COUNTDOWN_NEXT_SECONDS * 1000;
      state.isReopened = false;
    },
    backToEmail(state) {
      state.step = 'email';
    },
    passwordReset(state) {
      state.step = 'done';
    },
  },
});

export const { codeSent, codeReopened, codeResent, backToEmail, passwordReset } =
  resetPasswordFlow.actions;

/** Whether a letter to `email` went out so recently that the server would send no other. */
export function isCodeOnItsWay(state: ResetPasswordState, email: string, now: number): boolean {
  return state.email.toLowerCase() === email.toLowerCase() && now < state.resendAt;
}
