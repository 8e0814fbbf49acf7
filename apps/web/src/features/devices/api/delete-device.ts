import type { MessageAnswer } from '@portal/contracts/common';
import { msApi } from '@/shared/api/http';

/** Ends one of the caller's sessions at once. */
export async function deleteDevice(id: string): Promise<MessageAnswer> {
  const { data } = await msApi.delete<MessageAnswer>(
    `/authms/api/Auth/devices/${encodeURIComponent(id)}`,
    { requiresAuth: true },
  );
  return data;
}
