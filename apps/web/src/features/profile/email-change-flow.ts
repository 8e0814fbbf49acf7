import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The steps of an e-mail change: a code to the current address → the new address → a code to the
 * new address → done. A reducer of the slice kind, run by the dialog's `useReducer`: the flow lives
 * as long as the dialog, and closing it starts over.
 */
export type EmailChangeStep = 'start' | 'current-code' | 'new-email' | 'new-code' | 'done';

export type EmailChangeState = {
  step: EmailChangeStep;
  /** The digits typed in the boxes of either code step. */
  code: string;
  /** Why the code was refused: the digits stay, red, with this under them. */
  codeError: string | null;
  /** The address the second code went to. */
  newEmail: string;
  /** A call is under way: its buttons and the boxes wait. */
  isBusy: boolean;
};

export const initialEmailChangeState: EmailChangeState = {
  step: 'start',
  code: '',
  codeError: null,
  newEmail: '',
  isBusy: false,
};

/** Every step starts with empty boxes and no reason under them. */
function moveTo(state: EmailChangeState, step: EmailChangeStep) {
  state.step = step;
  state.code = '';
  state.codeError = null;
}

export const emailChangeFlow = createSlice({
  name: 'emailChange',
  initialState: initialEmailChangeState,
  reducers: {
    /** The next opening starts over. */
    closed: () => initialEmailChangeState,
    callStarted(state) {
      state.isBusy = true;
    },
    callEnded(state) {
      state.isBusy = false;
    },
    /** Sent first from the start, or again from the current address's code step. */
    currentCodeSent(state) {
      moveTo(state, 'current-code');
    },
    codeTyped(state, action: PayloadAction<string>) {
      state.code = action.payload;
      state.codeError = null;
    },
    codeRefused(state, action: PayloadAction<string>) {
      state.codeError = action.payload;
    },
    currentEmailVerified(state) {
      moveTo(state, 'new-email');
    },
    newCodeSent(state, action: PayloadAction<string>) {
      state.newEmail = action.payload;
      moveTo(state, 'new-code');
    },
    /** The new address was taken after all: named only once its code was proved, under it. */
    newEmailRefused(state) {
      state.step = 'new-email';
      state.code = '';
    },
    emailChanged(state) {
      moveTo(state, 'done');
    },
  },
});

export const {
  closed,
  callStarted,
  callEnded,
  currentCodeSent,
  codeTyped,
  codeRefused,
  currentEmailVerified,
  newCodeSent,
  newEmailRefused,
  emailChanged,
} = emailChangeFlow.actions;
