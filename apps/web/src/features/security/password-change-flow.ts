import { ONE_TIME_CODE_LENGTH } from '@portal/contracts/constants';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The steps of a password change: 'Вы уверены…?' → a code (mailed, or the authenticator's when it
 * is on) → the form → saving. A mailed code is checked by the server as soon as it is typed
 * (without being used up), so the form opens only for a right one; the authenticator's code is
 * checked with the change. A reducer of the slice kind, run by the dialog's `useReducer`: the
 * flow lives as long as the dialog, not in the app's store.
 */
export type PasswordChangeStep = 'closed' | 'confirm' | 'code' | 'form' | 'saving';

export type PasswordChangeState = {
  step: PasswordChangeStep;
  /** The code comes from the authenticator app rather than a letter. */
  usesAuthenticator: boolean;
  code: string;
  /** Why the server refused the code: shown under the boxes. */
  codeError: string | null;
  /** A typed mailed code is being checked by the server. */
  isCheckingCode: boolean;
  logoutOtherSessions: boolean;
};

export const initialPasswordChangeState: PasswordChangeState = {
  step: 'closed',
  usesAuthenticator: false,
  code: '',
  codeError: null,
  isCheckingCode: false,
  logoutOtherSessions: false,
};

export const passwordChangeFlow = createSlice({
  name: 'passwordChange',
  initialState: initialPasswordChangeState,
  reducers: {
    opened(state) {
      state.step = 'confirm';
    },
    /** Closed, saved, or no code could be sent: the next opening starts over. */
    closed: () => initialPasswordChangeState,
    codeAsked(state, action: PayloadAction<{ usesAuthenticator: boolean }>) {
      state.step = 'code';
      state.usesAuthenticator = action.payload.usesAuthenticator;
      state.code = '';
      state.codeError = null;
    },
    /**
     * A full code: the authenticator's moves on to the form (the change checks it), a mailed one
     * waits for the server's check.
     */
    codeTyped(state, action: PayloadAction<string>) {
      state.code = action.payload;
      state.codeError = null;
      if (action.payload.length !== ONE_TIME_CODE_LENGTH) return;
      if (state.usesAuthenticator) state.step = 'form';
      else state.isCheckingCode = true;
    },
    /** The server found the mailed code right: on to the form. */
    codeAccepted(state) {
      if (state.step !== 'code' || !state.isCheckingCode) return;
      state.isCheckingCode = false;
      state.step = 'form';
    },
    /** The server refused the mailed code: emptied boxes and the reason. */
    codeRefused(state, action: PayloadAction<string>) {
      if (state.step !== 'code' || !state.isCheckingCode) return;
      state.isCheckingCode = false;
      state.code = '';
      state.codeError = action.payload;
    },
    backToCode(state) {
      state.step = 'code';
    },
    logoutOtherSessionsChosen(state, action: PayloadAction<boolean>) {
      state.logoutOtherSessions = action.payload;
    },
    saveStarted(state) {
      state.step = 'saving';
    },
    /** A refused code goes back to the boxes, emptied, with the reason; anything else to the form. */
    saveRefused(state, action: PayloadAction<{ codeError?: string }>) {
      const { codeError } = action.payload;
      if (codeError) {
        state.step = 'code';
        state.code = '';
        state.codeError = codeError;
      } else {
        state.step = 'form';
      }
    },
  },
});

export const {
  opened,
  closed,
  codeAsked,
  codeTyped,
  codeAccepted,
  codeRefused,
  backToCode,
  logoutOtherSessionsChosen,
  saveStarted,
  saveRefused,
} = passwordChangeFlow.actions;
