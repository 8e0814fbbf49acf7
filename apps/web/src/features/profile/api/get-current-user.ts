import type { User } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/**
 * The current user, read quietly (no loading state): the profile refreshes contacts with it after
 * Telegram was linked in another tab, without blanking the page as a full user load would.
 */
export async function getCurrentUser(signal?: AbortSignal): Promise<User> {
  const { data } = await msApi.post<User>('/authms/api/Auth/user', undefined, {
    requiresAuth: true,
    signal,
  });
  return data;
}
