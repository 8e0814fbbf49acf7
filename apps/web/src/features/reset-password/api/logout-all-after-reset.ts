import type { LogoutAllAnswer, LogoutAllRequest } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/**
 * Signs the account out everywhere right after a reset: no token then, so the e-mail and the code
 * just used identify it (DESIGN §3; the server accepts the pair once, within minutes).
 */
export async function postLogoutAllAfterReset(body: LogoutAllRequest): Promise<LogoutAllAnswer> {
  const { data } = await msApi.post<LogoutAllAnswer>('/authms/api/Auth/logout-all', body);
  return data;
}
