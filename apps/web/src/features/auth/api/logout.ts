import type { LogoutAnswer } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/** Ends the current session on the server (the token stops working at once). */
export async function postLogout(): Promise<LogoutAnswer> {
  const { data } = await msApi.post<LogoutAnswer>('/authms/api/Auth/logout', undefined, {
    requiresAuth: true,
    endsSession: true,
  });
  return data;
}
