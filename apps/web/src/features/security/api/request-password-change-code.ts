import { PASSWORD_CHANGE_PRODUCT, type PasswordChangeCodeAnswer } from '@portal/contracts/security';
import { api } from '@/shared/api/http';

/** Mails the code that confirms a password change (not used when the authenticator is on). */
export async function postPasswordChangeCode(): Promise<PasswordChangeCodeAnswer> {
  const { data } = await api.post<PasswordChangeCodeAnswer>(
    `/${PASSWORD_CHANGE_PRODUCT}/auth/password/change-code`,
    undefined,
    { requiresAuth: true },
  );
  return data;
}
