import type { TwoFactorStatusAnswer } from '@portal/contracts/security';
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { fetchCurrentUser, signedOut } from '@/features/auth';
import { getTwoFactorStatus } from './api/get-two-factor-status';

/** The authenticator app as a second factor: connected, unconnected, or unavailable (unknown). */
type TwoFactorStatus = 'connected' | 'unconnected' | 'unavailable';

type TwoFactorState = {
  status: TwoFactorStatus;
  /** Unspent recovery codes; null until asked. */
  recoveryCodesLeft: number | null;
};

const initialState: TwoFactorState = { status: 'unavailable', recoveryCodesLeft: null };

export const fetchTwoFactorStatus = createAsyncThunk<TwoFactorStatusAnswer, void>(
  'twoFactor/fetchStatus',
  (_, { signal }) => getTwoFactorStatus(signal),
);

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
      .addCase(fetchTwoFactorStatus.fulfilled, (state, action) => {
        state.status = action.payload.isEnabled ? 'connected' : 'unconnected';
        state.recoveryCodesLeft = action.payload.isEnabled
          ? action.payload.recoveryCodesLeft
          : null;
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
