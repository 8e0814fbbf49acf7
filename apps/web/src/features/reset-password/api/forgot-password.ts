import type { ForgotPasswordAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Asks for a reset code. The body is the e-mail itself as a JSON string. */
export async function postForgotPassword(email: string): Promise<ForgotPasswordAnswer> {
  const { data } = await msApi.post<ForgotPasswordAnswer>(
    '/authms/api/Auth/forgot-password',
    JSON.stringify(email),
    { headers: { 'Content-Type': 'application/json' } },
  );
  return data;
}
