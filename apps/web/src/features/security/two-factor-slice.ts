import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { fetchCurrentUser, signedOut } from '@/features/auth';

/** The authenticator app as a second factor: connected, unconnected, or unavailable (unknown). */
type TwoFactorStatus = 'connected' | 'unconnected' | 'unavailable';

type TwoFactorState = {
  status: TwoFactorStatus;
  /**
   * Unspent recovery codes, when this tab connected the authenticator or renewed them; otherwise
   * null, and the count is the status query's (`api/two-factor-api.ts`).
   */
  recoveryCodesLeft: number | null;
};

const initialState: TwoFactorState = { status: 'unavailable', recoveryCodesLeft: null };

export const twoFactorSlice = createSlice({
  name: 'twoFactor',
  initialState,
  reducers: {
    /** Unconnected → connected after a verified code. */
    twoFactorConnected(state, action: PayloadAction<{ recoveryCodes: number }>) {
      state.status = 'connected';
      state.recoveryCodesLeft = action.payload.recoveryCodes;
    },
    /** Disabled through confirmation and code → unconnected. */
    twoFactorDisconnected(state) {
      state.status = 'unconnected';
      state.recoveryCodesLeft = null;
    },
    recoveryCodesRenewed(state, action: PayloadAction<number>) {
      state.recoveryCodesLeft = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchCurrentUser.fulfilled, (state, action) => {
        state.status = action.payload.isTwoFactorEnabled ? 'connected' : 'unconnected';
      })
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectTwoFactor: (state) => state,
    selectIsTwoFactorConnected: (state) => state.status === 'connected',
  },
});

export const { twoFactorConnected, twoFactorDisconnected, recoveryCodesRenewed } =
  twoFactorSlice.actions;
export const { selectTwoFactor, selectIsTwoFactorConnected } = twoFactorSlice.selectors;
