import type { Device } from '@portal/contracts/auth';
import { createAsyncThunk, createSlice } from '@reduxjs/toolkit';
import { signedOut } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import type { RequestStatus } from '@/shared/lib/request-status';
import { deleteDevice } from './api/delete-device';
import { getDevices } from './api/get-devices';

/** The linked devices: the caller's live sessions. */
type DevicesState = {
  status: RequestStatus;
  items: Device[];
};

const initialState: DevicesState = { status: 'idle', items: [] };

/** A failure carries its toast text. */
type ThunkConfig = { rejectValue: string };

export const fetchDevices = createAsyncThunk<Device[], void, ThunkConfig>(
  'devices/fetch',
  async (_, { signal, rejectWithValue }) => {
    try {
      return await getDevices(signal);
    } catch (error) {
      return rejectWithValue(toApiFailure(error).text);
    }
  },
);

/**
 * The session ends and the row goes; the page then checks auth again.
 */
export const endDeviceSession = createAsyncThunk<string, string, ThunkConfig>(
  'devices/endSession',
  async (id, { rejectWithValue }) => {
    try {
      await deleteDevice(id);
    } catch (error) {
      return rejectWithValue(toApiFailure(error).text);
    }
    return id;
  },
);

export const devicesSlice = createSlice({
  name: 'devices',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(fetchDevices.pending, (state) => {
        state.status = 'loading';
      })
      .addCase(fetchDevices.fulfilled, (_, action) => ({
        status: 'success',
        items: action.payload,
      }))
      .addCase(fetchDevices.rejected, (state, action) => {
        // A load given up by leaving the page keeps what was there.
        if (action.meta.aborted) return;
        state.status = 'failed';
        state.items = [];
      })
      .addCase(endDeviceSession.fulfilled, (state, action) => {
        state.items = state.items.filter((device) => device.id !== action.payload);
      })
      .addCase(signedOut, () => initialState);
  },
  selectors: {
    selectDevices: (state) => state.items,
    selectDevicesStatus: (state) => state.status,
  },
});

export const { selectDevices, selectDevicesStatus } = devicesSlice.selectors;
