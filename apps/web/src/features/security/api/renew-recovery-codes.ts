import type { RecoveryCodesAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Fresh recovery codes; every earlier one stops working. */
export async function postRenewRecoveryCodes(code: string): Promise<RecoveryCodesAnswer> {
  const { data } = await msApi.post<RecoveryCodesAnswer>(
    '/authms/api/Auth/2fa/recovery-codes',
    { code },
    { requiresAuth: true },
  );
  return data;
}
