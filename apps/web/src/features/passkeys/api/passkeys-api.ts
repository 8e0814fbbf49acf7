import type { MessageAnswer } from '@portal/contracts/common';
import type {
  Passkey,
  PasskeyCreationOptions,
  PasskeyListAnswer,
  PasskeyRegisterRequest,
} from '@portal/contracts/passkeys';
import { portalApi } from '@/shared/api/portal-api';

const PASSKEYS = '/authms/api/Auth/passkeys';

/**
 * The account's passkeys: the list, and the changes that read it again (`Passkeys`). Adding,
 * renaming and removing answer 403 `proof_required` without a fresh proof (the proof step, then
 * the same call again).
 */
export const passkeysApi = portalApi.injectEndpoints({
  endpoints: (build) => ({
    passkeys: build.query<Passkey[], void>({
      query: () => ({ url: PASSKEYS }),
      transformResponse: (answer: PasskeyListAnswer) => answer.data,
      providesTags: ['Passkeys'],
    }),
    /** Options for the browser's dialog. */
    passkeyRegistrationOptions: build.mutation<PasskeyCreationOptions, void>({
      query: () => ({ url: `${PASSKEYS}/registration/options`, method: 'POST' }),
      transformResponse: (answer: { options: PasskeyCreationOptions }) => answer.options,
    }),
    registerPasskey: build.mutation<{ message: string; passkey: Passkey }, PasskeyRegisterRequest>({
      query: (body) => ({ url: `${PASSKEYS}/registration`, method: 'POST', body }),
      invalidatesTags: ['Passkeys', 'Checkup', 'SecurityLog'],
    }),
    renamePasskey: build.mutation<Passkey, { id: string; name: string }>({
      query: ({ id, name }) => ({ url: `${PASSKEYS}/${id}`, method: 'PATCH', body: { name } }),
      invalidatesTags: ['Passkeys'],
    }),
    removePasskey: build.mutation<MessageAnswer, string>({
      query: (id) => ({ url: `${PASSKEYS}/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Passkeys', 'Checkup', 'SecurityLog'],
    }),
  }),
});

export const {
  usePasskeysQuery,
  usePasskeyRegistrationOptionsMutation,
  useRegisterPasskeyMutation,
  useRenamePasskeyMutation,
  useRemovePasskeyMutation,
} = passkeysApi;
