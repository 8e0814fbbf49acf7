import type { LoginAnswer, LoginRequest } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/** Answers a session token, or `{ requiresTwoFactor: true }` when a second factor is due. */
export async function postLogin(body: LoginRequest): Promise<LoginAnswer> {
  const { data } = await msApi.post<LoginAnswer>('/authms/api/Auth/login', body, {
    ownsSession: true,
  });
  return data;
}
