import {
  type DeletionStatusAnswer,
  deletionStatusAnswerSchema,
} from '@portal/contracts/account-data';
import { portalApi } from '@/shared/api/portal-api';

const BASE = '/authms/api/Auth/account-data';

/** Whether a deletion is due and whether a sign-in has just cancelled one (the notice). */
export const accountDataApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    deletionStatus: build.query<DeletionStatusAnswer, void>({
      query: () => ({ url: `${BASE}/deletion` }),
      transformResponse: (answer: unknown) => deletionStatusAnswerSchema.parse(answer),
      providesTags: ['AccountData'],
    }),
    /**
     * The notice was seen, in the profile's banner (which goes at once, whatever the answer) or
     * in the toast after the sign-in (the profile open meanwhile keeps its banner).
     */
    deletionNoticeSeen: build.mutation<void, 'banner' | 'toast'>({
      query: () => ({ url: `${BASE}/deletion/notice-seen`, method: 'POST' }),
      onQueryStarted: (seenIn, { dispatch }) => {
        if (seenIn !== 'banner') return;
        dispatch(
          accountDataApi.util.updateQueryData('deletionStatus', undefined, (status) => {
            status.isCancelledBySignIn = false;
          }),
        );
      },
    }),
  }),
});

export const { useDeletionStatusQuery, useDeletionNoticeSeenMutation } = accountDataApi;
