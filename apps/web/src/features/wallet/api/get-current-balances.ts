import { userSchema } from '@portal/contracts/auth';
import { msApi } from '@/shared/api/http';

export type Balances = { balance: number; balanceStars: number };

/**
 * The balances from the current-user call, read quietly: unlike the user fetch of spec §4 it does
 * not clear the user while it runs, so polling for a credit does not blank the page.
 */
export async function getCurrentBalances(signal?: AbortSignal): Promise<Balances> {
  const { data } = await msApi.post<unknown>('/authms/api/Auth/user', undefined, {
    signal,
    requiresAuth: true,
  });
  const { balance, balanceStars } = userSchema
    .pick({ balance: true, balanceStars: true })
    .parse(data);
  return { balance, balanceStars };
}
