import type { TwoFactorCodeAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** Switches the authenticator off; `code` is the app's code or a recovery code. */
export async function postDisableTwoFactor(code: string): Promise<TwoFactorCodeAnswer> {
  const { data } = await msApi.post<TwoFactorCodeAnswer>(
    '/authms/api/Auth/2fa/disable',
    { code },
    { requiresAuth: true },
  );
  return data;
}
