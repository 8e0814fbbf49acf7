import type { TwoFactorStatusAnswer } from '@portal/contracts/security';
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth/auth-actions';
import { fetchCurrentUser } from '@/features/auth/user-slice';
import { getTwoFactorStatus } from './api/get-two-factor-status';

/** Spec §3 "2FA settings", the google method: connected, unconnected, or unavailable (unknown). */
type GoogleTwoFactorStatus = 'connected' | 'unconnected' | 'unavailable';

type GoogleTwoFactorState = {
  status: GoogleTwoFactorStatus;
  /** Unspent recovery codes; null until asked. */
  recoveryCodesLeft: number | null;
};

const initialState: GoogleTwoFactorState = { status: 'unavailable', recoveryCodesLeft: null };

export const fetchGoogleTwoFactorStatus = createAsyncThunk<TwoFactorStatusAnswer, void>(
  'googleTwoFactor/fetchStatus',
  (_, { signal }) => getTwoFactorStatus(signal),
);

export const googleTwoFactorSlice = createSlice({
  name: 'googleTwoFactor',
  initialState,
  reducers: {
    /** Spec §4: unconnected → connected after a verified code. */
    googleConnected(state, action: PayloadAction<{ recoveryCodes: number }>) {
      state.status = 'connected';
      state.recoveryCodesLeft = action.payload.recoveryCodes;
    },
    /** Spec §4: disabled through confirmation and code → unconnected. */
    googleDisconnected(state) {
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
      .addCase(fetchCurrentUser.rejected, (state) => {
        state.status = 'unavailable';
      })
      .addCase(fetchGoogleTwoFactorStatus.fulfilled, (state, action) => {
        state.status = action.payload.isEnabled ? 'connected' : 'unconnected';
        state.recoveryCodesLeft = action.payload.isEnabled
          ? action.payload.recoveryCodesLeft
          : null;
      })
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectGoogleTwoFactor: (state) => state,
    selectIsGoogleConnected: (state) => state.status === 'connected',
  },
});

export const { googleConnected, googleDisconnected, recoveryCodesRenewed } =
  googleTwoFactorSlice.actions;
export const { selectGoogleTwoFactor, selectIsGoogleConnected } = googleTwoFactorSlice.selectors;
