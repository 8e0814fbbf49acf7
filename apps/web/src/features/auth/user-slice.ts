import type { User } from '@portal/contracts/auth';
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { msApi } from '@/shared/api/http';
import { isHttpError } from '@/shared/api/http-error';
import type { RequestStatus } from '@/shared/lib/request-status';
import { signedOut } from './auth-actions';
import { signOutLocally } from './auth-session';

/** User data of spec §4: loading clears data, success stores it, failure clears it. */
type UserState = {
  status: RequestStatus;
  data: User | null;
};

const initialState: UserState = { status: 'idle', data: null };

export const fetchCurrentUser = createAsyncThunk<User, void>(
  'user/fetchCurrent',
  async (_, { dispatch }) => {
    try {
      const { data } = await msApi.post<User>('/authms/api/Auth/user', undefined, {
        requiresAuth: true,
      });
      return data;
    } catch (error) {
      // A token the server no longer accepts is dropped silently (spec §8); the route guard then
      // sends the visitor to /auth.
      if (isHttpError(error) && error.response?.status === 401) {
        dispatch(signOutLocally());
      }
      throw error;
    }
  },
);

export const userSlice = createSlice({
  name: 'user',
  initialState,
  reducers: {
    /**
     * Spec §4: a profile update merges the names into the stored user, an avatar update replaces
     * avatarUrl (also: the new e-mail, a linked Telegram and phone). Nothing to merge into: ignored.
     */
    userMerged(state, action: PayloadAction<Partial<User>>) {
      if (state.data) state.data = { ...state.data, ...action.payload };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchCurrentUser.pending, () => ({ status: 'loading', data: null }))
      .addCase(fetchCurrentUser.fulfilled, (_, action) => ({
        status: 'success',
        data: action.payload,
      }))
      .addCase(fetchCurrentUser.rejected, () => ({ status: 'failed', data: null }))
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectUser: (state) => state.data,
    selectUserStatus: (state) => state.status,
  },
});

export const { userMerged } = userSlice.actions;
export const { selectUser, selectUserStatus } = userSlice.selectors;
