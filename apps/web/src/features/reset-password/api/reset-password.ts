import type { ResetPasswordAnswer, ResetPasswordRequest } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

export async function postResetPassword(body: ResetPasswordRequest): Promise<ResetPasswordAnswer> {
  const { data } = await msApi.post<ResetPasswordAnswer>(
    '/authms/api/Auth/reset-password-with-code',
    body,
  );
  return data;
}
