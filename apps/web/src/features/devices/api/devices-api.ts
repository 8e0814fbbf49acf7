import type { Device, DevicesAnswer } from '@portal/contracts/auth';
import type { MessageAnswer } from '@portal/contracts/common';
import { portalApi } from '@/shared/api/portal-api';

/** The caller's sessions (a device is a session), freshest first; ending one reads them again. */
export const devicesApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    devices: build.query<DevicesAnswer, void>({
      query: () => ({ url: '/authms/api/Auth/devices', method: 'POST' }),
      providesTags: ['Devices'],
    }),
    /**
     * Ends one of the caller's sessions at once; the list and the security log are read again.
     * This device's own: the tab is leaving, and nothing is read with the token it gave up.
     */
    endDeviceSession: build.mutation<MessageAnswer, Device>({
      query: (device) => ({
        url: `/authms/api/Auth/devices/${encodeURIComponent(device.id)}`,
        method: 'DELETE',
        endsSession: device.isCurrent,
      }),
      invalidatesTags: (_answer, _error, device) =>
        device.isCurrent ? [] : ['Devices', 'SecurityLog', 'Checkup'],
    }),
  }),
});

export const { useDevicesQuery, useEndDeviceSessionMutation } = devicesApi;
