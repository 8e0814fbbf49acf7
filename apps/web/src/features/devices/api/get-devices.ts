import type { DevicesAnswer } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/** The caller's sessions, freshest first (a device is a session). */
export async function getDevices(signal?: AbortSignal): Promise<DevicesAnswer> {
  const { data } = await msApi.post<DevicesAnswer>('/authms/api/Auth/devices', undefined, {
    requiresAuth: true,
    signal,
  });
  return data;
}
