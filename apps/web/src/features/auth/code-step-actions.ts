import type { Dispatch } from '@reduxjs/toolkit';
import { codeResendDelayed, codeScreenLeft, codeStepOpened } from './auth-slice';
import { type PendingConfirmation, writePendingConfirmation } from './pending-confirmation';

// The code screen's state goes to sessionStorage first, then to the store (pending-confirmation.ts).

/** The code screen for a code on its way: sessionStorage, then the store. */
export function openCodeStep(confirmation: PendingConfirmation) {
  return (dispatch: Dispatch) => {
    writePendingConfirmation(confirmation);
    dispatch(codeStepOpened(confirmation));
  };
}

/** The user left the code screen for the form: nothing pending is kept. */
export function leaveCodeStep() {
  return (dispatch: Dispatch) => {
    writePendingConfirmation(null);
    dispatch(codeScreenLeft());
  };
}

/** Another code may be asked for `seconds` from now (a reload keeps the countdown where it is). */
export function delayCodeResend(seconds: number, current: PendingConfirmation) {
  return (dispatch: Dispatch) => {
    const resendAt = Date.now() + seconds * 1000;
    writePendingConfirmation({ ...current, resendAt });
    dispatch(codeResendDelayed(resendAt));
  };
}
