import type { User } from '@portal/contracts/auth';
import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { toApiFailure } from '@/shared/api/api-failure';
import { msApi } from '@/shared/api/http';
import type { RequestStatus } from '@/shared/lib/request-status';
import { signedOut } from './auth-actions';
import { signOutLocally } from './auth-session';

/**
 * The signed-in user. A reload keeps the user shown until the answer, and a failed reload keeps it
 * too, so a refresh (after Telegram was linked, after a top-up) never blanks a page; a token the
 * server refuses signs out, which resets it.
 */
type UserState = {
  status: RequestStatus;
  data: User | null;
};

const initialState: UserState = { status: 'idle', data: null };

/** The one client of `POST …/Auth/user`: every load and refresh of the user goes through it. */
export const fetchCurrentUser = createAsyncThunk<User, void>(
  'user/fetchCurrent',
  async (_, { dispatch, signal }) => {
    try {
      const { data } = await msApi.post<User>('/authms/api/Auth/user', undefined, {
        requiresAuth: true,
        signal,
      });
      return data;
    } catch (error) {
      // A token the server no longer accepts is dropped silently; the route guard then sends the
      // visitor to /auth.
      if (toApiFailure(error).status === 401) {
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
     * A profile update merges the names into the stored user, an avatar update replaces avatarUrl,
     * an e-mail change the address. Nothing to merge into: ignored.
     */
    userMerged(state, action: PayloadAction<Partial<User>>) {
      if (state.data) state.data = { ...state.data, ...action.payload };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(fetchCurrentUser.pending, (state) => {
        state.status = 'loading';
      })
      .addCase(fetchCurrentUser.fulfilled, (_, action) => ({
        status: 'success',
        data: action.payload,
      }))
      .addCase(fetchCurrentUser.rejected, (state, action) => {
        // Given up (the page that asked is gone): as before the call, so the guard may ask again.
        if (action.meta.aborted) state.status = state.data ? 'success' : 'idle';
        else state.status = 'failed';
      })
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectUser: (state) => state.data,
    selectUserStatus: (state) => state.status,
  },
});

export const { userMerged } = userSlice.actions;
export const { selectUser, selectUserStatus } = userSlice.selectors;
