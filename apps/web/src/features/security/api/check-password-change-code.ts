import {
  PASSWORD_CHANGE_PRODUCT,
  type PasswordChangeCodeCheckAnswer,
  type PasswordChangeCodeCheckRequest,
} from '@portal/contracts/security';
import { api } from '@/shared/api/http';

/** Whether the mailed code is right, without using it up (a wrong one costs one of its tries). */
export async function postPasswordChangeCodeCheck(
  body: PasswordChangeCodeCheckRequest,
): Promise<PasswordChangeCodeCheckAnswer> {
  const { data } = await api.post<PasswordChangeCodeCheckAnswer>(
    `/${PASSWORD_CHANGE_PRODUCT}/auth/password/change-code/check`,
    body,
    { requiresAuth: true },
  );
  return data;
}
