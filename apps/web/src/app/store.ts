import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { authSlice } from '@/features/auth/auth-slice';
import { userSlice } from '@/features/auth/user-slice';
import { devicesSlice } from '@/features/devices/devices-slice';
import { telegramSlice } from '@/features/profile/telegram-slice';
import { twoFactorSlice } from '@/features/security/two-factor-slice';
import { walletSlice } from '@/features/wallet/wallet-slice';

// A feature adds its state by adding its slice to this list (one line).
const rootReducer = combineSlices(
  authSlice,
  userSlice,
  walletSlice,
  devicesSlice,
  telegramSlice,
  twoFactorSlice,
);

export function createStore() {
  return configureStore({ reducer: rootReducer });
}

type AppStore = ReturnType<typeof createStore>;
export type RootState = ReturnType<typeof rootReducer>;
export type AppDispatch = AppStore['dispatch'];
