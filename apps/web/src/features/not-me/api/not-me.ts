import type { NotMeAnswer } from '@portal/contracts/security';
import { msApi } from '@/shared/api/http';

/** POST not-me: the link's token; every session of the account ends, a reset code is mailed. */
export async function postNotMe(token: string): Promise<NotMeAnswer> {
  const { data } = await msApi.post<NotMeAnswer>('/authms/api/Auth/not-me', { token });
  return data;
}
