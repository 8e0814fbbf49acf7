import type { CheckupAnswer } from '@portal/contracts/checkup';
import { portalApi } from '@/shared/api/portal-api';

/** GET checkup: the account's security checkup, one item per rule. */
export const checkupApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    checkup: build.query<CheckupAnswer, void>({
      query: () => ({ url: '/authms/api/Auth/checkup' }),
      providesTags: ['Checkup', 'User'],
    }),
  }),
});

export const { useCheckupQuery } = checkupApi;
