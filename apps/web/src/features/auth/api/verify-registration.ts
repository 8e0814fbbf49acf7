import type { VerifyRegistrationAnswer, VerifyRegistrationRequest } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/** Confirms the e-mail code; the answer signs the new user in. */
export async function postVerifyRegistration(
  body: VerifyRegistrationRequest,
): Promise<VerifyRegistrationAnswer> {
  const { data } = await msApi.post<VerifyRegistrationAnswer>(
    '/authms/api/Auth/verify-registration',
    body,
    { ownsSession: true },
  );
  return data;
}
