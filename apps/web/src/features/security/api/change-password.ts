import {
  PASSWORD_CHANGE_PRODUCT,
  type PasswordChangeAnswer,
  type PasswordChangeRequest,
} from '@portal/contracts/security';
import { api } from '@/shared/api/http';

/** `POST /{product}/auth/password/change` on the main base. */
export async function postPasswordChange(
  body: PasswordChangeRequest,
): Promise<PasswordChangeAnswer> {
  const { data } = await api.post<PasswordChangeAnswer>(
    `/${PASSWORD_CHANGE_PRODUCT}/auth/password/change`,
    body,
    { requiresAuth: true },
  );
  return data;
}
