import type { TwoFactorEnableAnswer } from '@portal/contracts/security';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The dialogs of the authenticator line: connect (the key, then the first code), disable and renew
 * (each confirmed by a code), then the recovery codes. A reducer of the slice kind, run by the
 * line's `useReducer`: the flow lives as long as the line, not in the app's store.
 */
export type TwoFactorDialog = 'none' | 'connect' | 'disable' | 'renew';

export type TwoFactorSetupState = {
  dialog: TwoFactorDialog;
  /** The key is being asked for; clicks on 'Подключить' meanwhile are ignored. */
  isStarting: boolean;
  /**
   * The key of the connect dialog; null until the server handed it out (the dialog shows the
   * proof step of `useProofThenRetry` meanwhile, when the server first wants a proof).
   */
  enrollment: TwoFactorEnableAnswer | null;
  /** Codes just received, shown once the dialog that got them is gone (two dialogs fight over focus). */
  pendingCodes: string[];
  /** The codes the recovery-codes dialog shows; it is open while there are any. */
  shownCodes: string[];
};

export const initialTwoFactorSetupState: TwoFactorSetupState = {
  dialog: 'none',
  isStarting: false,
  enrollment: null,
  pendingCodes: [],
  shownCodes: [],
};

export const twoFactorSetupFlow = createSlice({
  name: 'twoFactorSetup',
  initialState: initialTwoFactorSetupState,
  reducers: {
    connectStarted(state) {
      state.isStarting = true;
    },
    /** The key is in: at once, or after the proof the server first wanted. */
    connectOpened(state, action: PayloadAction<TwoFactorEnableAnswer>) {
      state.dialog = 'connect';
      state.enrollment = action.payload;
    },
    /**
     * The first ask is over (the key came, the server wants a proof first, or it refused): clicks
     * on 'Подключить' count again.
     */
    connectSettled(state) {
      state.isStarting = false;
    },
    dialogOpened(state, action: PayloadAction<'disable' | 'renew'>) {
      state.dialog = action.payload;
    },
    dialogClosed(state) {
      state.dialog = 'none';
    },
    /** Connected or renewed: the dialog closes, and the codes wait until it is gone. */
    recoveryCodesReceived(state, action: PayloadAction<string[]>) {
      state.dialog = 'none';
      state.pendingCodes = action.payload;
    },
    /** A dialog finished closing: its key is forgotten, and codes it got are shown now. */
    dialogGone(state) {
      state.enrollment = null;
      if (state.pendingCodes.length > 0) {
        state.shownCodes = state.pendingCodes;
        state.pendingCodes = [];
      }
    },
    recoveryCodesSaved(state) {
      state.shownCodes = [];
    },
  },
});

export const {
  connectStarted,
  connectOpened,
  connectSettled,
  dialogOpened,
  dialogClosed,
  recoveryCodesReceived,
  dialogGone,
  recoveryCodesSaved,
} = twoFactorSetupFlow.actions;
