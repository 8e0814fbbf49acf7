import type { RecoveryCodesAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Switches the authenticator on; answers the recovery codes, shown once. */
export async function postVerifyTwoFactor(code: string): Promise<RecoveryCodesAnswer> {
  const { data } = await msApi.post<RecoveryCodesAnswer>(
    '/authms/api/Auth/2fa/verify',
    { code },
    { requiresAuth: true },
  );
  return data;
}
