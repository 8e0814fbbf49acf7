import type { TwoFactorStatusAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Whether the authenticator is on and how many recovery codes are left. */
export async function getTwoFactorStatus(signal?: AbortSignal): Promise<TwoFactorStatusAnswer> {
  const { data } = await msApi.get<TwoFactorStatusAnswer>('/authms/api/Auth/2fa/status', {
    requiresAuth: true,
    signal,
  });
  return data;
}
