import type { TwoFactorEnableAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** A pending authenticator secret: the QR code (base64 PNG), the secret and the otpauth URI. */
export async function postEnableTwoFactor(): Promise<TwoFactorEnableAnswer> {
  const { data } = await msApi.post<TwoFactorEnableAnswer>(
    '/authms/api/Auth/2fa/enable',
    undefined,
    { requiresAuth: true },
  );
  return data;
}
