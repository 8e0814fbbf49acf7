import type { CheckupAnswer } from '@portal/contracts/checkup';
import { msApi } from '@/shared/api/http';

/** GET checkup: the account's security checkup, one item per rule. */
export async function getCheckup(signal?: AbortSignal): Promise<CheckupAnswer> {
  const { data } = await msApi.get<CheckupAnswer>('/authms/api/Auth/checkup', {
    requiresAuth: true,
    signal,
  });
  return data;
}
