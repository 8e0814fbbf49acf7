import {
  SECURITY_LOG_PAGE_SIZE,
  type SecurityLogAnswer,
  securityLogAnswerSchema,
} from '@portal/contracts/security-log';
import { portalApi } from '@/shared/api/portal-api';

/**
 * The account's security log, newest first (`GET /authms/api/Auth/security-log`), a page at a
 * time: «Показать ещё» asks for the next page by the cursor the last one gave.
 */
export const securityLogApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    securityLog: build.infiniteQuery<SecurityLogAnswer, void, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
      },
      query: ({ pageParam }) => ({
        url: '/authms/api/Auth/security-log',
        params: { limit: SECURITY_LOG_PAGE_SIZE, cursor: pageParam },
      }),
      transformResponse: (answer: unknown) => securityLogAnswerSchema.parse(answer),
      providesTags: ['SecurityLog'],
    }),
  }),
});

export const { useSecurityLogInfiniteQuery } = securityLogApi;
