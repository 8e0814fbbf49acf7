import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth';
import { checkTelegramUser } from './api/telegram';

/** The statuses of a second-factor method. */
export type TwoFactorMethodStatus = 'connected' | 'unconnected' | 'unavailable';

type TelegramState = { status: TwoFactorMethodStatus };

const initialState: TelegramState = { status: 'unavailable' };

/**
 * The Telegram status: unavailable while checking, connected when the server says
 * linked, unconnected when not, unavailable on error. A quiet re-check (while waiting for the bot)
 * keeps the shown status until the answer.
 */
export const checkTelegram = createAsyncThunk(
  'telegram/check',
  (_options: { isQuiet?: boolean } | undefined, { signal }) => checkTelegramUser(signal),
);

export const telegramSlice = createSlice({
  name: 'telegram',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(checkTelegram.pending, (state, action) => {
        if (!action.meta.arg?.isQuiet) state.status = 'unavailable';
      })
      .addCase(checkTelegram.fulfilled, (state, action) => {
        state.status = action.payload ? 'connected' : 'unconnected';
      })
      .addCase(checkTelegram.rejected, (state, action) => {
        if (action.meta.aborted || action.meta.arg?.isQuiet) return;
        state.status = 'unavailable';
      })
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectTelegramStatus: (state) => state.status,
  },
});

export const { selectTelegramStatus } = telegramSlice.selectors;
