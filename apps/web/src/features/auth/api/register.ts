import type { RegisterAnswer, RegisterRequest } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

/** Creates the unconfirmed account and mails a code; the same call resends the code. */
export async function postRegister(body: RegisterRequest): Promise<RegisterAnswer> {
  const { data } = await msApi.post<RegisterAnswer>('/authms/api/Auth/register', body);
  return data;
}
