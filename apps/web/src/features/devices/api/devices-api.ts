import type { DevicesAnswer } from '@portal/contracts/auth';
import type { MessageAnswer } from '@portal/contracts/common';
import { portalApi } from '@/shared/api/portal-api';

/** The caller's sessions (a device is a session), freshest first; ending one reads them again. */
export const devicesApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    devices: build.query<DevicesAnswer, void>({
      query: () => ({ url: '/authms/api/Auth/devices', method: 'POST' }),
      providesTags: ['Devices'],
    }),
    /** Ends one of the caller's sessions at once; the list and the security log are read again. */
    endDeviceSession: build.mutation<MessageAnswer, string>({
      query: (id) => ({
        url: `/authms/api/Auth/devices/${encodeURIComponent(id)}`,
        method: 'DELETE',
      }),
      invalidatesTags: ['Devices', 'SecurityLog', 'Checkup'],
    }),
  }),
});

export const { useDevicesQuery, useEndDeviceSessionMutation } = devicesApi;
