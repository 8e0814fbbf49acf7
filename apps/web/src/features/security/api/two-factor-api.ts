import type { TwoFactorStatusAnswer } from '@portal/contracts/security';
import { portalApi } from '@/shared/api/portal-api';

/** Whether the authenticator is on and how many recovery codes are left. */
export const twoFactorApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    twoFactorStatus: build.query<TwoFactorStatusAnswer, void>({
      query: () => ({ url: '/authms/api/Auth/2fa/status' }),
      providesTags: ['User'],
    }),
  }),
});

export const { useTwoFactorStatusQuery } = twoFactorApi;
